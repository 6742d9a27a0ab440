// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @notice Fixed single owner: devnet tokens never change hands, so there is no transfer of ownership.
abstract contract Owned {
    error Unauthorized(address caller);

    address public immutable owner;

    constructor() {
        owner = msg.sender;
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert Unauthorized(msg.sender);
        _;
    }
}
