// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {PoolAddress} from "./PoolAddress.sol";
import {RouterBase} from "./RouterBase.sol";

/// @notice Uniswap v3-family pools (any fork: its pool deployer, which is the factory or a separate
/// deployer, and init code hash come from the venue table): `swap`, then the pool calls back for payment.
/// Only the pool this step computed from its venue's deployer may call back, once; the payment goes from the taker (or what the plan
/// holds in the router) straight to that pool. The step travels in the callback data, so a chained
/// exact-out step can run its next link for exactly what the pool asks. A fork whose pools call back under
/// another name with the same arguments (PancakeSwap v3's `pancakeV3SwapCallback`) names it in its venue
/// record; that name is accepted only while that venue's verified pool is being swapped with, from it.
abstract contract V3Venue is RouterBase {
    /// @param deployer the venue's table word with its pool deployer and callback name; `initCodeHash`: its pools'
    function _swapV3(Leg memory leg, uint256 deployer, bytes32 initCodeHash)
        internal
        returns (uint256 paidIn, uint256 out)
    {
        (address token0, address token1) = PoolAddress.sort(leg.tokenIn, leg.tokenOut);
        address expected = PoolAddress.v3Pool(_deployerOf(deployer), initCodeHash, token0, token1, leg.fee);
        _checkPool(leg, leg.pool, expected);
        if (leg.amount > uint256(type(int256).max)) revert AmountTooLarge(leg.amount);
        bool zeroForOne = leg.tokenIn == token0;
        bytes4 callbackName = _callbackNameOf(deployer);
        if (callbackName != bytes4(0)) tV3CallbackName = callbackName;
        (int256 deltaIn, int256 deltaOut) = _callPool(expected, zeroForOne, leg);
        if (callbackName != bytes4(0)) tV3CallbackName = bytes4(0);
        if (deltaIn < 0 || deltaOut > 0) revert BadDelta(leg.index);
        paidIn = uint256(deltaIn);
        out = uint256(-deltaOut);
        if (leg.exactOut && out != leg.amount) revert PartialFill(leg.index, out, leg.amount);
    }

    /// @notice `pool.swap(to, zeroForOne, amountSpecified, sqrtPriceLimitX96, data)`, written in scratch
    /// memory past the free memory pointer (as the ERC-20 and v2 pair calls are: no ABI encoder); a revert
    /// is passed on, an answer short of two words reverts (an address without code answers nothing, as the
    /// high-level call's decoder required). `data` is what the callback pays with: one word (the input token,
    /// bit 160 set when it comes from the plan's holding, the step's index above), and for a step with chain
    /// links below it two more (the recipient, the sell token) and the links' plan bytes, copied from this
    /// frame's calldata, so the callback can run the next link (`_link`) from its own calldata.
    /// @return deltaIn deltaOut the pool's balance changes in the input and output token
    function _callPool(address pool, bool zeroForOne, Leg memory leg)
        private
        returns (int256 deltaIn, int256 deltaOut)
    {
        (address to, int256 amountSpecified) = (leg.to, leg.exactOut ? -int256(leg.amount) : int256(leg.amount));
        uint160 priceLimit = zeroForOne ? MIN_SQRT_PRICE_LIMIT : MAX_SQRT_PRICE_LIMIT;
        uint256 head = uint256(uint160(leg.tokenIn)) | (leg.fromRouter ? 1 << 160 : 0) | leg.index << 168;
        (uint256 links, uint256 linksEnd, address recipient, address sellToken) =
            (leg.links, leg.linksEnd, leg.recipient, leg.sellToken);
        tCallback = pool;
        int256 amount0;
        int256 amount1;
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, shl(224, 0x128acb08))
            mstore(add(m, 0x04), to)
            mstore(add(m, 0x24), zeroForOne)
            mstore(add(m, 0x44), amountSpecified)
            mstore(add(m, 0x64), priceLimit)
            mstore(add(m, 0x84), 0xa0)
            mstore(add(m, 0xc4), head)
            let length := 0x20
            if links {
                let size := sub(linksEnd, links)
                mstore(add(m, 0xe4), recipient)
                mstore(add(m, 0x104), sellToken)
                calldatacopy(add(m, 0x124), links, size)
                length := add(0x60, size)
                // ABI bytes are zero-padded to a whole word.
                mstore(add(add(m, 0xc4), length), 0)
            }
            mstore(add(m, 0xa4), length)
            if iszero(call(gas(), pool, 0, m, add(0xc4, and(add(length, 31), not(31))), 0x00, 0x40)) {
                returndatacopy(m, 0, returndatasize())
                revert(m, returndatasize())
            }
            if lt(returndatasize(), 0x40) { revert(0, 0) }
            amount0 := mload(0x00)
            amount1 := mload(0x20)
        }
        tCallback = address(0);
        (deltaIn, deltaOut) = zeroForOne ? (amount0, amount1) : (amount1, amount0);
    }

    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external {
        _paidV3(amount0Delta, amount1Delta, data);
    }

    /// @notice A v3 fork's callback under its own name: `(int256, int256, bytes)` after the selector, as
    /// `uniswapV3SwapCallback` takes them. Any other call (no fork pool in flight, another selector, another
    /// sender) reverts; the sender is checked before the arguments are read.
    fallback() external {
        bytes4 name = tV3CallbackName;
        if (name == bytes4(0) || msg.sig != name || msg.sender != tCallback) revert UnexpectedCallback(msg.sender);
        (int256 amount0Delta, int256 amount1Delta) = abi.decode(msg.data[4:68], (int256, int256));
        // `bytes data`: its offset (from the arguments' start) in the third word, then length and content.
        uint256 offset = 4 + uint256(bytes32(msg.data[68:100]));
        uint256 length = uint256(bytes32(msg.data[offset:offset + 32]));
        _paidV3(amount0Delta, amount1Delta, msg.data[offset + 32:offset + 32 + length]);
    }

    /// @dev `data` is what `_callPool` wrote, handed back by the pool `tCallback` names (only that pool
    /// gets here, once), so its shape is the router's own.
    function _paidV3(int256 amount0Delta, int256 amount1Delta, bytes calldata data) private {
        if (msg.sender != tCallback) revert UnexpectedCallback(msg.sender);
        tCallback = address(0);
        int256 owed = amount0Delta > 0 ? amount0Delta : amount1Delta;
        if (owed <= 0) return;
        uint256 head;
        assembly ("memory-safe") {
            head := calldataload(data.offset)
        }
        address tokenIn = address(uint160(head));
        bool fromRouter = head >> 160 & 1 != 0;
        if (data.length == 0x20) return _pay(tokenIn, msg.sender, uint256(owed), fromRouter);
        if (data.length <= 0x60) revert UnexpectedCallback(msg.sender);
        Leg memory leg;
        (leg.index, leg.tokenIn, leg.fromRouter) = (head >> 168, tokenIn, fromRouter);
        address recipient;
        address sellToken;
        uint256 links;
        uint256 linksEnd;
        assembly ("memory-safe") {
            recipient := calldataload(add(data.offset, 0x20))
            sellToken := calldataload(add(data.offset, 0x40))
            links := add(data.offset, 0x60)
            linksEnd := add(data.offset, data.length)
        }
        (leg.recipient, leg.sellToken, leg.links, leg.linksEnd) = (recipient, sellToken, links, linksEnd);
        _payLeg(leg, msg.sender, uint256(owed));
    }
}
