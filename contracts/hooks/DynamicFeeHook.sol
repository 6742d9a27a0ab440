// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {BaseHook} from "@uniswap/v4-periphery/src/utils/BaseHook.sol";
import {Hooks} from "@uniswap/v4-core/src/libraries/Hooks.sol";
import {LPFeeLibrary} from "@uniswap/v4-core/src/libraries/LPFeeLibrary.sol";
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {PoolId, PoolIdLibrary} from "@uniswap/v4-core/src/types/PoolId.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {BeforeSwapDelta, BeforeSwapDeltaLibrary} from "@uniswap/v4-core/src/types/BeforeSwapDelta.sol";

/// @notice Anti-snipe fee of launchpad-style v4 pools: the LP fee starts at `startFee` when the pool is
/// initialized and falls linearly to `baseFee` over `decayPeriod` seconds.
/// The pool must be created with the dynamic-fee flag (fee 0x800000). Before every swap the hook writes
/// the fee due into the pool with `updateDynamicLPFee` rather than returning a per-swap override, so the
/// pool's slot0 always shows the fee of its latest swap; `currentFee` tells the fee of the next one.
/// Permissions: afterInitialize | beforeSwap, i.e. address bits 0x1080 (see devnet/Artifacts.ts).
contract DynamicFeeHook is BaseHook {
    using LPFeeLibrary for uint24;
    using PoolIdLibrary for PoolKey;

    error PoolFeeNotDynamic();
    error InvalidFeeSchedule(uint24 startFee, uint24 baseFee);

    uint24 public immutable startFee;
    uint24 public immutable baseFee;
    uint32 public immutable decayPeriod;

    mapping(PoolId id => uint256) public launchedAt;

    constructor(IPoolManager manager, uint24 startFee_, uint24 baseFee_, uint32 decayPeriod_) BaseHook(manager) {
        if (!startFee_.isValid() || baseFee_ > startFee_) revert InvalidFeeSchedule(startFee_, baseFee_);
        startFee = startFee_;
        baseFee = baseFee_;
        decayPeriod = decayPeriod_;
    }

    function getHookPermissions() public pure override returns (Hooks.Permissions memory permissions) {
        permissions.afterInitialize = true;
        permissions.beforeSwap = true;
    }

    /// @notice LP fee (hundredths of a bip) the pool charges on a swap in the current block.
    function currentFee(PoolId id) public view returns (uint24) {
        uint256 elapsed = block.timestamp - launchedAt[id];
        if (elapsed >= decayPeriod) return baseFee;
        return uint24(startFee - (startFee - baseFee) * elapsed / decayPeriod);
    }

    function _afterInitialize(address, PoolKey calldata key, uint160, int24) internal override returns (bytes4) {
        if (!key.fee.isDynamicFee()) revert PoolFeeNotDynamic();
        launchedAt[key.toId()] = block.timestamp;
        poolManager.updateDynamicLPFee(key, startFee);
        return IHooks.afterInitialize.selector;
    }

    function _beforeSwap(address, PoolKey calldata key, SwapParams calldata, bytes calldata)
        internal
        override
        returns (bytes4, BeforeSwapDelta, uint24)
    {
        poolManager.updateDynamicLPFee(key, currentFee(key.toId()));
        return (IHooks.beforeSwap.selector, BeforeSwapDeltaLibrary.ZERO_DELTA, 0);
    }
}
