// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {PoolAwareToken} from "./token/PoolAwareToken.sol";

/// @notice Token with an anti-whale cap: a single buy or sell larger than `maxTxAmount` reverts.
/// Transfers between wallets are not capped, and the owner is exempt so it can seed liquidity.
contract CappedToken is PoolAwareToken {
    error MaxTxAmountExceeded(uint256 amount, uint256 maxTxAmount);

    uint256 public immutable maxTxAmount;

    constructor(string memory name_, string memory symbol_, uint256 initialSupply, uint256 maxTxAmount_)
        PoolAwareToken(name_, symbol_, initialSupply)
    {
        maxTxAmount = maxTxAmount_;
    }

    function _update(address from, address to, uint256 value) internal override {
        bool trade = isPool[from] || isPool[to];
        bool exempt = from == owner || to == owner;
        if (trade && !exempt && value > maxTxAmount) revert MaxTxAmountExceeded(value, maxTxAmount);
        _move(from, to, value);
    }
}
