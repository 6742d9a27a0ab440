// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {CorpusDistributor} from "./CorpusDistributor.sol";
import {ICorpusV2Router} from "./CorpusInterfaces.sol";
import {SwapBack} from "./SwapBack.sol";
import {NamedToken} from "../token/NamedToken.sol";
import {Owned} from "../token/Owned.sol";

/// @notice A reward token: buy and sell fees collect in the contract, are sold for USDC into the
/// distributor on sells past the threshold, and every transfer updates both sides' shares and runs
/// `process(distributorGas)`. Like the templates it models, it refuses a transfer left with less gas
/// than the distributor's budget plus a reserve: so it succeeds under a generous gas limit and reverts
/// under a limit fitted to what one generous run used.
contract CorpusDividendToken is NamedToken, Owned, SwapBack {
    error InsufficientGas(uint256 left, uint256 needed);

    uint256 public constant GAS_RESERVE = 100_000;

    uint16 public immutable feeBps;
    uint256 public immutable distributorGas;
    CorpusDistributor public immutable distributor;
    mapping(address account => bool) public isFeeExempt;
    mapping(address account => bool) public isDividendExempt;

    constructor(ICorpusV2Router router_, address usdc_, address marketing_, uint16 feeBps_, uint256 distributorGas_)
        NamedToken("Corpus Dividend", "CDIV", 18)
        SwapBack(router_, usdc_, marketing_, 200e18)
    {
        feeBps = feeBps_;
        distributorGas = distributorGas_;
        distributor = new CorpusDistributor(usdc_, 10_000);
        isFeeExempt[msg.sender] = true;
        isFeeExempt[address(this)] = true;
        isDividendExempt[msg.sender] = true;
        isDividendExempt[address(this)] = true;
        isDividendExempt[pair] = true;
        _mint(msg.sender, 1_000_000e18);
        _approve(address(this), address(router_), type(uint256).max);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (inSwap || isFeeExempt[from] || isFeeExempt[to]) {
            _move(from, to, value);
        } else {
            bool sell = to == pair;
            if (sell && balanceOf[address(this)] >= swapThreshold) _rewardHolders();
            uint256 fee = from == pair || sell ? value * feeBps / 10_000 : 0;
            if (fee != 0) _move(from, address(this), fee);
            _move(from, to, value - fee);
        }
        if (!isDividendExempt[from]) distributor.setShare(from, balanceOf[from]);
        if (!isDividendExempt[to]) distributor.setShare(to, balanceOf[to]);
        if (inSwap) return;
        uint256 needed = distributorGas + GAS_RESERVE;
        if (gasleft() < needed) revert InsufficientGas(gasleft(), needed);
        try distributor.process(distributorGas) {} catch {}
    }

    function _rewardHolders() private {
        inSwap = true;
        _sellFees(swapThreshold, address(distributor));
        distributor.deposit();
        inSwap = false;
    }
}
