// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {BaseHook} from "@uniswap/v4-periphery/src/utils/BaseHook.sol";
import {Hooks} from "@uniswap/v4-core/src/libraries/Hooks.sol";
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {Currency} from "@uniswap/v4-core/src/types/Currency.sol";

/// @notice A v4 "sell tax" hook as token launchers attach them: buys pass untouched; on a sell of `token`
/// the hook keeps `sellFeeBps` of the swap's unspecified side (the USDC out of an exact-in sell, the
/// tokens in of an exact-out one) through its return delta and pays it to `recipient`. A few hundred bps
/// is a creator fee; the corpus also deploys it at 9,000 bps, a trap that leaves sellers a tenth.
/// Permissions: afterSwap | afterSwapReturnDelta, address bits 0x0044.
contract CorpusSellFeeHook is BaseHook {
    error FeeTooHigh(uint16 feeBps);

    address public immutable token;
    uint16 public immutable sellFeeBps;
    address public immutable recipient;

    constructor(IPoolManager manager, address token_, uint16 sellFeeBps_, address recipient_) BaseHook(manager) {
        if (sellFeeBps_ >= 10_000) revert FeeTooHigh(sellFeeBps_);
        token = token_;
        sellFeeBps = sellFeeBps_;
        recipient = recipient_;
    }

    function getHookPermissions() public pure override returns (Hooks.Permissions memory permissions) {
        permissions.afterSwap = true;
        permissions.afterSwapReturnDelta = true;
    }

    function _afterSwap(address, PoolKey calldata key, SwapParams calldata params, BalanceDelta delta, bytes calldata)
        internal
        override
        returns (bytes4, int128)
    {
        Currency input = params.zeroForOne ? key.currency0 : key.currency1;
        if (Currency.unwrap(input) != token) return (IHooks.afterSwap.selector, 0);
        bool specifiedIsCurrency0 = (params.amountSpecified < 0) == params.zeroForOne;
        (Currency currency, int128 amount) =
            specifiedIsCurrency0 ? (key.currency1, delta.amount1()) : (key.currency0, delta.amount0());
        uint256 fee = uint256(uint128(amount < 0 ? -amount : amount)) * sellFeeBps / 10_000;
        if (fee != 0) poolManager.take(currency, recipient, fee);
        return (IHooks.afterSwap.selector, int128(int256(fee)));
    }
}
