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

/// @notice Creator fee of launchpad-style v4 pools: after each swap the hook keeps `feeBps` of the
/// swap's unspecified side (the output of an exact-in swap, the input of an exact-out one) and sends it to
/// `feeRecipient`. The pool's Swap event shows the amounts before this cut, so quoting must apply it.
/// Permissions: afterSwap | afterSwapReturnDelta, i.e. address bits 0x0044 (see devnet/Artifacts.ts).
contract SwapFeeHook is BaseHook {
    error FeeTooHigh(uint16 feeBps);

    uint16 public immutable feeBps;
    address public immutable feeRecipient;

    constructor(IPoolManager manager, uint16 feeBps_, address feeRecipient_) BaseHook(manager) {
        if (feeBps_ > 10_000) revert FeeTooHigh(feeBps_);
        feeBps = feeBps_;
        feeRecipient = feeRecipient_;
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
        bool specifiedIsCurrency0 = (params.amountSpecified < 0) == params.zeroForOne;
        (Currency currency, int128 amount) =
            specifiedIsCurrency0 ? (key.currency1, delta.amount1()) : (key.currency0, delta.amount0());
        uint256 fee = uint256(uint128(amount < 0 ? -amount : amount)) * feeBps / 10_000;
        if (fee != 0) poolManager.take(currency, feeRecipient, fee);
        // The fee is below |amount| <= type(int128).max, so the cast cannot truncate.
        return (IHooks.afterSwap.selector, int128(int256(fee)));
    }
}
