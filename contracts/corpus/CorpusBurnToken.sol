// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {ICorpusV2Factory, ICorpusV2Pair} from "./CorpusInterfaces.sol";
import {NamedToken} from "../token/NamedToken.sol";
import {Owned} from "../token/Owned.sol";

/// @notice A deflationary token of the "pool burn" kind: each sell burns a share of the seller's amount
/// and, before the seller's tokens arrive, burns a share of the pair's own tokens and calls `sync()`, so
/// the pair's reserves drop (and the price rises) in the middle of the seller's transfer.
contract CorpusBurnToken is NamedToken, Owned {
    uint16 public immutable sellBurnBps;
    uint16 public immutable poolBurnBps;
    address public immutable pair;

    constructor(ICorpusV2Factory factory, address usdc, uint16 sellBurnBps_, uint16 poolBurnBps_)
        NamedToken("Corpus Burn", "CBURN", 18)
    {
        sellBurnBps = sellBurnBps_;
        poolBurnBps = poolBurnBps_;
        pair = factory.createPair(address(this), usdc);
        _mint(msg.sender, 1_000_000e18);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (to != pair || from == owner) {
            _move(from, to, value);
            return;
        }
        uint256 poolBurn = value * poolBurnBps / 10_000;
        if (poolBurn != 0 && poolBurn < balanceOf[pair]) {
            _burn(pair, poolBurn);
            ICorpusV2Pair(pair).sync();
        }
        uint256 burnt = value * sellBurnBps / 10_000;
        if (burnt != 0) _burn(from, burnt);
        _move(from, to, value - burnt);
    }
}
