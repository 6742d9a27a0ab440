// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {NamedToken} from "../token/NamedToken.sol";

/// @notice A token born on the Launchpad: its whole fixed supply is minted to the launchpad, which sells
/// it along the bonding curve and seeds the graduation pool with the rest.
contract LaunchToken is NamedToken {
    constructor(string memory name_, string memory symbol_, uint256 supply) NamedToken(name_, symbol_, 18) {
        _mint(msg.sender, supply);
    }
}
