// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

interface IV3Callback {
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external;
}

interface IUnlockCallbackTarget {
    function unlockCallback(bytes calldata data) external returns (bytes memory);
}

/// @notice Test fixture posing as a v3 pool: `swap` (if a router ever called it) and `strike` (on its own)
/// call the router's payment callbacks asking to be paid `demand` of `token` from whoever is paying.
contract FakePool {
    address public immutable token;
    uint256 public immutable demand;

    constructor(address token_, uint256 demand_) {
        token = token_;
        demand = demand_;
    }

    function swap(address, bool, int256, uint160, bytes calldata) external returns (int256, int256) {
        IV3Callback(msg.sender).uniswapV3SwapCallback(int256(demand), 0, abi.encode(token, false));
        return (int256(demand), 0);
    }

    function strike(address router) external {
        IV3Callback(router).uniswapV3SwapCallback(int256(demand), int256(demand), abi.encode(token, false));
    }

    /// @notice The v3 callback under another name (a fork's), with the same arguments.
    function strikeNamed(address router, string calldata signature) external {
        (bool ok, bytes memory reason) = router.call(
            abi.encodeWithSignature(signature, int256(demand), int256(demand), abi.encode(token, false))
        );
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(reason, 32), mload(reason))
            }
        }
    }

    function strikeUnlock(address router, bytes calldata data) external {
        IUnlockCallbackTarget(router).unlockCallback(data);
    }
}
