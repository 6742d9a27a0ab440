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

/// @notice Uniswap v4 through the step's venue's PoolManager (from the venue table): one `unlock` per step, the swap, then settle
/// what the step owes and take what it is owed. A pool is its key; the PoolManager swaps only
/// initialized keys, and hooks (dynamic fees, fee-taking return deltas) act inside its accounting, which
/// the router then settles in full or the PoolManager reverts the whole transaction. A v4 step nested
/// in another v4 step's settlement (an exact-out chain) swaps inside the unlock already open when it is
/// on the same PoolManager, and opens its own otherwise.
abstract contract V4Venue is RouterBase, IUnlockCallback {
    /// @dev The PoolManager unlocked for one of our steps right now, if any.
    address internal transient tUnlocked;
    /// @dev `abi.encode(leg)`: a `Leg` is 17 static fields.
    uint256 private constant LEG_SIZE = 17 * 32;

    /// @param manager the venue's PoolManager (its table registry)
    function _swapV4(Leg memory leg, address manager) internal returns (uint256 paidIn, uint256 out) {
        if (leg.pool != manager) revert ForgedPool(leg.index, leg.pool, manager);
        if (leg.amount > uint256(uint128(type(int128).max))) revert AmountTooLarge(leg.amount);
        if (tUnlocked == manager) {
            (paidIn, out) = _swapUnlocked(leg);
        } else {
            tCallback = manager;
            // The leg, then the chain links below it (if any) from this frame's calldata: the callback
            // reads them from its own.
            bytes memory data = leg.links == 0
                ? abi.encode(leg)
                : bytes.concat(abi.encode(leg), msg.data[leg.links:leg.linksEnd]);
            bytes memory result = IPoolManager(manager).unlock(data);
            tCallback = address(0);
            (paidIn, out) = abi.decode(result, (uint256, uint256));
        }
        if (leg.exactOut && out != leg.amount) revert PartialFill(leg.index, out, leg.amount);
    }

    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        // Only our own `unlock` makes a PoolManager call us: tCallback is the trusted venue's PoolManager
        // `_swapV4` just unlocked, so a caller equal to it is that one (and never the zero address).
        if (msg.sender != tCallback || msg.sender == address(0)) revert UnexpectedCallback(msg.sender);
        tCallback = address(0);
        address outer = tUnlocked;
        tUnlocked = msg.sender;
        Leg memory leg = abi.decode(data[:LEG_SIZE], (Leg));
        // The links' offsets `_swapV4` encoded were its frame's; here they are this call's data.
        (uint256 links, uint256 linksEnd) = (0, 0);
        if (data.length > LEG_SIZE) {
            assembly ("memory-safe") {
                links := add(data.offset, LEG_SIZE)
                linksEnd := add(data.offset, data.length)
            }
        }
        (leg.links, leg.linksEnd) = (links, linksEnd);
        (uint256 paidIn, uint256 out) = _swapUnlocked(leg);
        tUnlocked = outer;
        return abi.encode(paidIn, out);
    }

    /// @dev Runs inside the unlock of `leg.pool`, which `_swapV4` checked is its venue's PoolManager.
    function _swapUnlocked(Leg memory leg) private returns (uint256 paidIn, uint256 out) {
        (address token0, address token1) = PoolAddress.sort(leg.tokenIn, leg.tokenOut);
        bool zeroForOne = leg.tokenIn == token0;
        IPoolManager manager = IPoolManager(leg.pool);
        // v4 signs the other way round from v3: negative is exact input.
        int256 specified = leg.exactOut ? int256(leg.amount) : -int256(leg.amount);
        BalanceDelta delta = manager.swap(
            PoolKey(Currency.wrap(token0), Currency.wrap(token1), leg.fee, leg.tickSpacing, IHooks(leg.hooks)),
            SwapParams({
                zeroForOne: zeroForOne,
                amountSpecified: specified,
                sqrtPriceLimitX96: zeroForOne ? MIN_SQRT_PRICE_LIMIT : MAX_SQRT_PRICE_LIMIT
            }),
            ""
        );
        (int128 deltaIn, int128 deltaOut) =
            zeroForOne ? (delta.amount0(), delta.amount1()) : (delta.amount1(), delta.amount0());
        // A hook's return delta may shrink the output, never turn it into a debt or the input into a credit.
        if (deltaIn > 0 || deltaOut < 0) revert BadDelta(leg.index);
        paidIn = uint256(uint128(-deltaIn));
        out = uint256(uint128(deltaOut));
        // Exact input: nobody (hook included) may charge more than the step specified.
        if (!leg.exactOut && paidIn > leg.amount) revert BadDelta(leg.index);
        if (paidIn != 0) {
            // A chained step's input is made first, so the sync below sees only this payment arrive.
            _provide(leg, paidIn);
            manager.sync(Currency.wrap(leg.tokenIn));
            _pay(leg.tokenIn, leg.pool, paidIn, leg.fromRouter);
            manager.settle();
        }
        if (out != 0) manager.take(Currency.wrap(leg.tokenOut), leg.to, out);
    }
}
