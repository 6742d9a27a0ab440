// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {BaseHook} from "@uniswap/v4-periphery/src/utils/BaseHook.sol";
import {Hooks} from "@uniswap/v4-core/src/libraries/Hooks.sol";
import {IHooks} from "@uniswap/v4-core/src/interfaces/IHooks.sol";
import {IPoolManager} from "@uniswap/v4-core/src/interfaces/IPoolManager.sol";
import {PoolKey} from "@uniswap/v4-core/src/types/PoolKey.sol";
import {SwapParams} from "@uniswap/v4-core/src/types/PoolOperation.sol";
import {BalanceDelta} from "@uniswap/v4-core/src/types/BalanceDelta.sol";
import {BeforeSwapDelta, BeforeSwapDeltaLibrary} from "@uniswap/v4-core/src/types/BeforeSwapDelta.sol";

/// @notice Test fixture: a v4 hook that, before and after every swap, makes a call of the test's choosing
/// (re-entering the router or forging its callbacks) and records whether it got through.
/// Permissions: beforeSwap | afterSwap, address bits 0x00C0.
contract ReentrantHook is BaseHook {
    address public target;
    bytes public attack;
    uint256 public attempts;
    uint256 public successes;

    constructor(IPoolManager manager) BaseHook(manager) {}

    function arm(address target_, bytes calldata attack_) external {
        target = target_;
        attack = attack_;
    }

    function getHookPermissions() public pure override returns (Hooks.Permissions memory permissions) {
        permissions.beforeSwap = true;
        permissions.afterSwap = true;
    }

    function _beforeSwap(address, PoolKey calldata, SwapParams calldata, bytes calldata)
        internal
        override
        returns (bytes4, BeforeSwapDelta, uint24)
    {
        _strike();
        return (IHooks.beforeSwap.selector, BeforeSwapDeltaLibrary.ZERO_DELTA, 0);
    }

    function _afterSwap(address, PoolKey calldata, SwapParams calldata, BalanceDelta, bytes calldata)
        internal
        override
        returns (bytes4, int128)
    {
        _strike();
        return (IHooks.afterSwap.selector, 0);
    }

    function _strike() private {
        if (target == address(0)) return;
        (bool ok,) = target.call(attack);
        attempts += 1;
        if (ok) successes += 1;
    }
}
