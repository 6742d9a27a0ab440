// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {TrapToken} from "./TrapToken.sol";

/// @notice The launch templates' "bot list", turned on a buyer: an address the owner marks may still buy,
/// and what happens to its sells is each token's own. A fresh wallet sells fine, so only a sell-back from
/// the marked wallet itself shows the trap.
abstract contract BotListToken is TrapToken {
    mapping(address => bool) public isBot;

    function setBots(address[] calldata accounts, bool marked) external {
        require(msg.sender == owner, "owner only");
        for (uint256 i = 0; i < accounts.length; i++) isBot[accounts[i]] = marked;
    }

    /// @dev A sell by a marked wallet.
    function _isBotSell(address from, address to) internal view returns (bool) {
        return _isSell(from, to) && isBot[from];
    }
}

/// @notice A marked wallet's sells revert.
contract BotBlockToken is BotListToken {
    constructor(uint256 supply) TrapToken("Bot Block", "BBLOCK", supply) {}

    function _transfer(address from, address to, uint256 value) internal override returns (bool) {
        require(!_isBotSell(from, to), "bot");
        return super._transfer(from, to, value);
    }
}

/// @notice A marked wallet's sells go through, and 99 % of what it sells goes to the owner.
contract BotTaxToken is BotListToken {
    constructor(uint256 supply) TrapToken("Bot Tax", "BTAX", supply) {}

    function _transfer(address from, address to, uint256 value) internal override returns (bool) {
        if (!_isBotSell(from, to)) return super._transfer(from, to, value);
        uint256 taken = value * 99 / 100;
        super._transfer(from, owner, taken);
        return super._transfer(from, to, value - taken);
    }
}
