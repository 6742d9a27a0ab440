// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {ICorpusV2Router} from "./CorpusInterfaces.sol";
import {SwapBack} from "./SwapBack.sol";
import {NamedToken} from "../token/NamedToken.sol";
import {Owned} from "../token/Owned.sol";

/// @notice The most common tax token: buy and sell fees collect in the token contract, and a sell made
/// while the contract holds at least `swapThreshold` first runs swapAndLiquify through the same pair the
/// seller is selling into, so that pair's reserves move during the seller's own transfer.
/// The owner, the contract and the marketing wallet trade untaxed.
contract CorpusTaxToken is NamedToken, Owned, SwapBack {
    uint16 public immutable buyFeeBps;
    uint16 public immutable sellFeeBps;
    mapping(address account => bool) public isFeeExempt;

    constructor(ICorpusV2Router router_, address usdc_, address marketing_, uint16 buyFeeBps_, uint16 sellFeeBps_)
        NamedToken("Corpus Tax", "CTAX", 18)
        SwapBack(router_, usdc_, marketing_, 200e18)
    {
        buyFeeBps = buyFeeBps_;
        sellFeeBps = sellFeeBps_;
        isFeeExempt[msg.sender] = true;
        isFeeExempt[address(this)] = true;
        isFeeExempt[marketing_] = true;
        _mint(msg.sender, 1_000_000e18);
        _approve(address(this), address(router_), type(uint256).max);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (inSwap || isFeeExempt[from] || isFeeExempt[to]) {
            _move(from, to, value);
            return;
        }
        bool sell = to == pair;
        if (sell && balanceOf[address(this)] >= swapThreshold) _liquify(swapThreshold);
        uint256 fee = value * (from == pair ? buyFeeBps : sell ? sellFeeBps : 0) / 10_000;
        if (fee != 0) _move(from, address(this), fee);
        _move(from, to, value - fee);
    }
}
