// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {ICorpusV2Router} from "./CorpusInterfaces.sol";
import {SwapBack} from "./SwapBack.sol";

/// @notice A SafeMoon-style reflection token. Holders own reflected units (`rOwned`); a balance is those
/// units divided by the current rate, and the reflection fee is paid out by shrinking `rTotal`, so every
/// holder's balance grows with no Transfer event for the growth. Accounts excluded from rewards (the pair,
/// so its balance stays what its reserves count) hold plain units in `tOwned`. A liquidity fee collects in
/// the contract and is liquified on sells, as SafeMoon's swapAndLiquify does.
contract CorpusReflectionToken is SwapBack {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    error InsufficientBalance(address account, uint256 balance, uint256 needed);
    error InsufficientAllowance(address spender, uint256 allowed, uint256 needed);

    string public constant name = "Corpus Reflect";
    string public constant symbol = "CREFL";
    uint8 public constant decimals = 18;
    uint256 public constant totalSupply = 1_000_000e18;

    uint16 public immutable reflectionFeeBps;
    uint16 public immutable liquidityFeeBps;
    uint256 private rTotal = type(uint256).max - (type(uint256).max % totalSupply);
    mapping(address account => uint256) private rOwned;
    mapping(address account => uint256) private tOwned;
    mapping(address account => bool) public isExcludedFromReward;
    address[] private excluded;
    mapping(address account => bool) public isFeeExempt;
    mapping(address owner => mapping(address spender => uint256)) public allowance;

    constructor(ICorpusV2Router router_, address usdc_, address marketing_, uint16 reflectionFeeBps_, uint16 liquidityFeeBps_)
        SwapBack(router_, usdc_, marketing_, 200e18)
    {
        reflectionFeeBps = reflectionFeeBps_;
        liquidityFeeBps = liquidityFeeBps_;
        rOwned[msg.sender] = rTotal;
        emit Transfer(address(0), msg.sender, totalSupply);
        isFeeExempt[msg.sender] = true;
        isFeeExempt[address(this)] = true;
        isExcludedFromReward[pair] = true;
        excluded.push(pair);
        allowance[address(this)][address(router_)] = type(uint256).max;
    }

    function balanceOf(address account) public view returns (uint256) {
        return isExcludedFromReward[account] ? tOwned[account] : rOwned[account] / _rate();
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < value) revert InsufficientAllowance(msg.sender, allowed, value);
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function _transfer(address from, address to, uint256 value) private {
        uint256 balance = balanceOf(from);
        if (balance < value) revert InsufficientBalance(from, balance, value);
        bool taxed = !inSwap && !isFeeExempt[from] && !isFeeExempt[to];
        if (taxed && to == pair && balanceOf(address(this)) >= swapThreshold) _liquify(swapThreshold);
        uint256 tReflect = taxed ? value * reflectionFeeBps / 10_000 : 0;
        uint256 tLiquidity = taxed ? value * liquidityFeeBps / 10_000 : 0;
        uint256 tReceived = value - tReflect - tLiquidity;
        uint256 rate = _rate();
        _debit(from, value, value * rate);
        _credit(to, tReceived, tReceived * rate);
        if (tLiquidity != 0) {
            _credit(address(this), tLiquidity, tLiquidity * rate);
            emit Transfer(from, address(this), tLiquidity);
        }
        // Reflection: fewer reflected units for the same supply raise every included holder's balance.
        rTotal -= tReflect * rate;
        emit Transfer(from, to, tReceived);
    }

    function _debit(address account, uint256 tAmount, uint256 rAmount) private {
        // The reflected debit can exceed rOwned by rounding for a whole-balance transfer: clamp.
        rOwned[account] = rOwned[account] > rAmount ? rOwned[account] - rAmount : 0;
        if (isExcludedFromReward[account]) tOwned[account] -= tAmount;
    }

    function _credit(address account, uint256 tAmount, uint256 rAmount) private {
        rOwned[account] += rAmount;
        if (isExcludedFromReward[account]) tOwned[account] += tAmount;
    }

    /// @dev Reflected units per token among holders still earning rewards.
    function _rate() private view returns (uint256) {
        uint256 rSupply = rTotal;
        uint256 tSupply = totalSupply;
        for (uint256 i = 0; i < excluded.length; i++) {
            if (rOwned[excluded[i]] > rSupply || tOwned[excluded[i]] > tSupply) return rTotal / totalSupply;
            rSupply -= rOwned[excluded[i]];
            tSupply -= tOwned[excluded[i]];
        }
        if (tSupply == 0 || rSupply < rTotal / totalSupply) return rTotal / totalSupply;
        return rSupply / tSupply;
    }
}
