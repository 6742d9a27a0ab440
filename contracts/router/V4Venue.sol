// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {IUnlockCallback} from "@uniswap/v4-core/src/interfaces/callback/IUnlockCallback.sol";
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {PoolAddress} from "./PoolAddress.sol";
import {RouterBase} from "./RouterBase.sol";

/// @notice Uniswap v4 through the configured PoolManager: one `unlock` per step, the swap, then settle
/// what the step owes and take what it is owed. A pool is its key; the PoolManager swaps only
/// initialized keys, and hooks (dynamic fees, fee-taking return deltas) act inside its accounting, which
/// the router then settles in full or the PoolManager reverts the whole transaction.
abstract contract V4Venue is RouterBase, IUnlockCallback {
    struct V4Swap {
        PoolKey key;
        bool zeroForOne;
        int256 amountSpecified;
        address tokenIn;
        address tokenOut;
        address to;
        bool fromRouter;
        uint256 index;
    }

    function _swapV4(address pool, uint24 fee, int24 tickSpacing, address hooks, Leg memory leg)
        internal
        returns (uint256 paidIn, uint256 out)
    {
        if (poolManager == address(0)) revert VenueUnavailable(leg.index);
        if (pool != poolManager) revert ForgedPool(leg.index, pool, poolManager);
        if (leg.amount > uint256(uint128(type(int128).max))) revert AmountTooLarge(leg.amount);
        (address token0, address token1) = PoolAddress.sort(leg.tokenIn, leg.tokenOut);
        bool zeroForOne = leg.tokenIn == token0;
        V4Swap memory swap = V4Swap({
            key: PoolKey(Currency.wrap(token0), Currency.wrap(token1), fee, tickSpacing, IHooks(hooks)),
            zeroForOne: zeroForOne,
            // v4 signs the other way round from v3: negative is exact input.
            amountSpecified: leg.exactOut ? int256(leg.amount) : -int256(leg.amount),
            tokenIn: leg.tokenIn,
            tokenOut: leg.tokenOut,
            to: leg.to,
            fromRouter: leg.fromRouter,
            index: leg.index
        });
        tCallback = poolManager;
        bytes memory result = IPoolManager(poolManager).unlock(abi.encode(swap));
        tCallback = address(0);
        (paidIn, out) = abi.decode(result, (uint256, uint256));
        if (leg.exactOut && out != leg.amount) revert PartialFill(leg.index, out, leg.amount);
    }

    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        // Only our own `unlock` makes the PoolManager call us; tCallback proves it is that one.
        if (msg.sender != poolManager || tCallback != msg.sender) revert UnexpectedCallback(msg.sender);
        tCallback = address(0);
        V4Swap memory swap = abi.decode(data, (V4Swap));
        IPoolManager manager = IPoolManager(poolManager);
        BalanceDelta delta = manager.swap(
            swap.key,
            SwapParams({
                zeroForOne: swap.zeroForOne,
                amountSpecified: swap.amountSpecified,
                sqrtPriceLimitX96: swap.zeroForOne ? MIN_SQRT_PRICE_LIMIT : MAX_SQRT_PRICE_LIMIT
            }),
            ""
        );
        (int128 deltaIn, int128 deltaOut) =
            swap.zeroForOne ? (delta.amount0(), delta.amount1()) : (delta.amount1(), delta.amount0());
        // A hook's return delta may shrink the output, never turn it into a debt or the input into a credit.
        if (deltaIn > 0 || deltaOut < 0) revert BadDelta(swap.index);
        uint256 paidIn = uint256(uint128(-deltaIn));
        uint256 out = uint256(uint128(deltaOut));
        // Exact input: nobody (hook included) may charge more than the step specified.
        if (swap.amountSpecified < 0 && paidIn > uint256(-swap.amountSpecified)) revert BadDelta(swap.index);
        if (paidIn != 0) {
            manager.sync(Currency.wrap(swap.tokenIn));
            _pay(swap.tokenIn, poolManager, paidIn, swap.fromRouter);
            manager.settle();
        }
        if (out != 0) manager.take(Currency.wrap(swap.tokenOut), swap.to, out);
        return abi.encode(paidIn, out);
    }
}
