// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IUniswapV2Pair} from "@uniswap/v2-core/contracts/interfaces/IUniswapV2Pair.sol";
import {NamedToken} from "../../token/NamedToken.sol";
import {Owned} from "../../token/Owned.sol";

/// @notice Test fixture after "deflationary pool burn" tokens: on every sell, before the sold tokens
/// move, a share of the pair's own balance of the token is burnt and the pair is `sync`ed, which lowers
/// its reserve of the token (raising the price) inside the seller's own transfer. The owner trades
/// without it, to seed liquidity.
contract PairBurnToken is NamedToken, Owned {
    uint16 public immutable burnBps;
    address public pair;

    constructor(uint256 supply, uint16 burnBps_) NamedToken("Pair Burn", "PBURN", 18) {
        burnBps = burnBps_;
        _mint(msg.sender, supply);
    }

    function setPair(address pair_) external onlyOwner {
        pair = pair_;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (to == pair && from != owner && pair != address(0)) {
            uint256 burnt = balanceOf[pair] * burnBps / 10_000;
            if (burnt != 0) {
                _move(pair, address(0), burnt);
                IUniswapV2Pair(pair).sync();
            }
        }
        _move(from, to, value);
    }
}
