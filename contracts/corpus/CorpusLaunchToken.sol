// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {ICorpusV2Factory} from "./CorpusInterfaces.sol";
import {NamedToken} from "../token/NamedToken.sol";
import {Owned} from "../token/Owned.sol";

/// @notice The anti-bot launch template: trading opens when the owner says so; buys in the launch block
/// mark the buyer a sniper, who can never transfer again; for `LAUNCH_BLOCKS` blocks both sides pay the
/// launch tax; a buy may not exceed the max transaction nor leave the wallet above the max wallet; a wallet
/// buys at most once per block (the "transfer delay" cooldown). Once launched it is an honest taxed token.
contract CorpusLaunchToken is NamedToken, Owned {
    error TradingClosed();
    error Sniper(address account);
    error AboveMaxTransaction(uint256 value, uint256 max);
    error AboveMaxWallet(uint256 balance, uint256 max);
    error BuyCooldown(address account);

    uint256 public constant LAUNCH_BLOCKS = 5;
    uint16 public constant LAUNCH_TAX_BPS = 2_500;

    address public immutable pair;
    address public immutable marketing;
    uint16 public immutable buyTaxBps;
    uint16 public immutable sellTaxBps;
    uint256 public immutable maxTransaction;
    uint256 public immutable maxWallet;
    uint256 public launchBlock;
    mapping(address account => bool) public isSniper;
    mapping(address account => uint256) private lastBuyBlock;

    constructor(ICorpusV2Factory factory, address usdc, address marketing_, uint16 buyTaxBps_, uint16 sellTaxBps_)
        NamedToken("Corpus Launch", "CLAUNCH", 18)
    {
        pair = factory.createPair(address(this), usdc);
        marketing = marketing_;
        buyTaxBps = buyTaxBps_;
        sellTaxBps = sellTaxBps_;
        _mint(msg.sender, 1_000_000e18);
        maxTransaction = 10_000e18;
        maxWallet = 20_000e18;
    }

    function openTrading() external onlyOwner {
        launchBlock = block.number;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from == owner || to == owner || from == marketing) {
            _move(from, to, value);
            return;
        }
        if (launchBlock == 0) revert TradingClosed();
        if (isSniper[from]) revert Sniper(from);
        bool buy = from == pair;
        bool sell = to == pair;
        if (buy || sell) {
            if (value > maxTransaction) revert AboveMaxTransaction(value, maxTransaction);
        }
        if (buy) {
            if (lastBuyBlock[to] == block.number) revert BuyCooldown(to);
            lastBuyBlock[to] = block.number;
            if (block.number == launchBlock) isSniper[to] = true;
        }
        uint256 taxBps = block.number < launchBlock + LAUNCH_BLOCKS
            ? (buy || sell ? LAUNCH_TAX_BPS : 0)
            : (buy ? buyTaxBps : sell ? sellTaxBps : 0);
        uint256 tax = value * taxBps / 10_000;
        if (tax != 0) _move(from, marketing, tax);
        _move(from, to, value - tax);
        if (!sell && to != pair && balanceOf[to] > maxWallet) revert AboveMaxWallet(balanceOf[to], maxWallet);
    }
}
