// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

interface IPancakeV3PoolActions {
    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata data)
        external
        returns (uint256 amount0, uint256 amount1);
    function swap(address recipient, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96, bytes calldata data)
        external
        returns (int256 amount0, int256 amount1);
    function token0() external view returns (address);
    function token1() external view returns (address);
}

interface IERC20From {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// @notice Devnet tooling for PancakeSwap v3 pools, which Uniswap's periphery cannot reach (it computes
/// pools from Uniswap's factory and init code hash and answers Uniswap's callback names): adds liquidity
/// and swaps as a wallet would, paying from the caller in the pool's own callbacks, and `probe` runs a
/// real swap and reverts with its balance changes, as QuoterV2 does, for exact quotes.
contract PancakeV3Liquidity {
    error Probed(int256 amount0, int256 amount1);

    /// @dev The pool being called and who pays it; a callback from anything else is refused.
    address private transient _pool;
    address private transient _payer;
    bool private transient _probing;

    function mint(address pool, int24 tickLower, int24 tickUpper, uint128 liquidity)
        external
        returns (uint256 amount0, uint256 amount1)
    {
        _enter(pool, msg.sender);
        (amount0, amount1) = IPancakeV3PoolActions(pool).mint(msg.sender, tickLower, tickUpper, liquidity, "");
        _pool = address(0);
    }

    function swap(address pool, bool zeroForOne, int256 amountSpecified, address recipient)
        external
        returns (int256 amount0, int256 amount1)
    {
        _enter(pool, msg.sender);
        (amount0, amount1) = IPancakeV3PoolActions(pool).swap(recipient, zeroForOne, amountSpecified, _limit(zeroForOne), "");
        _pool = address(0);
    }

    /// @notice Always reverts: `Probed(amount0, amount1)` for a swap that went through, else the pool's reason.
    function probe(address pool, bool zeroForOne, int256 amountSpecified) external {
        _enter(pool, address(0));
        _probing = true;
        IPancakeV3PoolActions(pool).swap(address(this), zeroForOne, amountSpecified, _limit(zeroForOne), "");
    }

    function pancakeV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata) external {
        _pay(amount0Owed, amount1Owed);
    }

    function pancakeV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata) external {
        require(msg.sender == _pool, "not the pool called");
        if (_probing) revert Probed(amount0Delta, amount1Delta);
        _pay(amount0Delta > 0 ? uint256(amount0Delta) : 0, amount1Delta > 0 ? uint256(amount1Delta) : 0);
    }

    function _enter(address pool, address payer) private {
        require(_pool == address(0), "busy");
        _pool = pool;
        _payer = payer;
    }

    function _pay(uint256 amount0, uint256 amount1) private {
        require(msg.sender == _pool, "not the pool called");
        IPancakeV3PoolActions pool = IPancakeV3PoolActions(msg.sender);
        if (amount0 > 0) require(IERC20From(pool.token0()).transferFrom(_payer, msg.sender, amount0), "token0");
        if (amount1 > 0) require(IERC20From(pool.token1()).transferFrom(_payer, msg.sender, amount1), "token1");
    }

    /// @dev TickMath's bounds, one step inside: no price limit.
    function _limit(bool zeroForOne) private pure returns (uint160) {
        return zeroForOne ? 4295128740 : 1461446703485210103287273052203988822378723970341;
    }
}
