// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {PoolAwareToken} from "./token/PoolAwareToken.sol";

/// @notice Token that can be bought but not sold: any transfer into a registered pool fails unless the
/// sender is the owner or excluded from limits (so the owner can still add liquidity).
/// It fails with the same error as a genuine shortfall of balance, the disguise real scams use, so that
/// a checker must simulate the sell rather than read the ABI or the revert reason.
contract HoneypotToken is PoolAwareToken {
    event ExcludedFromLimits(address indexed account, bool excluded);

    mapping(address account => bool) public isExcludedFromLimits;

    constructor(string memory name_, string memory symbol_, uint256 initialSupply)
        PoolAwareToken(name_, symbol_, initialSupply)
    {}

    function excludeFromLimits(address account, bool excluded) external onlyOwner {
        isExcludedFromLimits[account] = excluded;
        emit ExcludedFromLimits(account, excluded);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (isPool[to] && from != owner && !isExcludedFromLimits[from]) {
            revert ERC20InsufficientBalance(from, 0, value);
        }
        _move(from, to, value);
    }
}
