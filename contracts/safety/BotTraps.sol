// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {TrapToken} from "./TrapToken.sol";

/// @notice The launch templates' "bot list", turned on a buyer: an address the owner marks may still
/// buy, but its sells revert. A fresh wallet sells fine, so only a sell-back from the marked wallet
/// itself shows the trap.
contract BotBlockToken is TrapToken {
    mapping(address => bool) public isBot;

    constructor(uint256 supply) TrapToken("Bot Block", "BBLOCK", supply) {}

    function setBots(address[] calldata accounts, bool marked) external {
        require(msg.sender == owner, "owner only");
        for (uint256 i = 0; i < accounts.length; i++) isBot[accounts[i]] = marked;
    }

    function _transfer(address from, address to, uint256 value) internal override returns (bool) {
        if (_isSell(from, to)) require(!isBot[from], "bot");
        return super._transfer(from, to, value);
    }
}

/// @notice The same list with a sell tax instead of a revert: a marked wallet's sells go through and
/// 99 % of what it sells goes to the owner.
contract BotTaxToken is TrapToken {
    mapping(address => bool) public isBot;

    constructor(uint256 supply) TrapToken("Bot Tax", "BTAX", supply) {}

    function setBots(address[] calldata accounts, bool marked) external {
        require(msg.sender == owner, "owner only");
        for (uint256 i = 0; i < accounts.length; i++) isBot[accounts[i]] = marked;
    }

    function _transfer(address from, address to, uint256 value) internal override returns (bool) {
        if (_isSell(from, to) && isBot[from]) {
            uint256 taken = value * 99 / 100;
            super._transfer(from, owner, taken);
            return super._transfer(from, to, value - taken);
        }
        return super._transfer(from, to, value);
    }
}
