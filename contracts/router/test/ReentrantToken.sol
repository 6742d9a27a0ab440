// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {NamedToken} from "../../token/NamedToken.sol";

/// @notice Test fixture for the router's safety tests: an ERC-20 that, on every balance change, makes a
/// call of the test's choosing (re-entering the router, forging its callbacks) and records whether the
/// call got through, without reverting the transfer that carried it.
contract ReentrantToken is NamedToken {
    address public target;
    bytes public attack;
    uint256 public attempts;
    uint256 public successes;
    bool private attacking;

    constructor(string memory name_, string memory symbol_, uint256 supply) NamedToken(name_, symbol_, 18) {
        _mint(msg.sender, supply);
    }

    function arm(address target_, bytes calldata attack_) external {
        target = target_;
        attack = attack_;
    }

    function _update(address from, address to, uint256 value) internal override {
        _move(from, to, value);
        if (target == address(0) || attacking) return;
        attacking = true;
        (bool ok,) = target.call(attack);
        attacking = false;
        attempts += 1;
        if (ok) successes += 1;
    }
}
