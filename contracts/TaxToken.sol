// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {PoolAwareToken} from "./token/PoolAwareToken.sol";

/// @notice Fee-on-transfer token: a buy (tokens leaving a pool) and a sell (tokens entering a pool) each
/// lose a share of the amount to the treasury, as on real tax tokens.
/// Buys are taxed on every venue. Taxed sells settle on Uniswap v2 (the pair prices what it received, so
/// the router's fee-on-transfer functions or a direct pair swap work) but revert on v3 pools and the v4
/// PoolManager, which insist on receiving the full amount: the same as real tax tokens there.
/// The owner and the treasury trade untaxed so the owner can seed liquidity.
contract TaxToken is PoolAwareToken {
    error TaxTooHigh(uint16 taxBps);

    uint16 public immutable buyTaxBps;
    uint16 public immutable sellTaxBps;
    address public immutable treasury;

    constructor(
        string memory name_,
        string memory symbol_,
        uint256 initialSupply,
        uint16 buyTaxBps_,
        uint16 sellTaxBps_,
        address treasury_
    ) PoolAwareToken(name_, symbol_, initialSupply) {
        if (buyTaxBps_ > 10_000) revert TaxTooHigh(buyTaxBps_);
        if (sellTaxBps_ > 10_000) revert TaxTooHigh(sellTaxBps_);
        buyTaxBps = buyTaxBps_;
        sellTaxBps = sellTaxBps_;
        treasury = treasury_;
    }

    function _update(address from, address to, uint256 value) internal override {
        uint256 taxBps = 0;
        if (!_isExempt(from) && !_isExempt(to)) {
            if (isPool[from]) taxBps = buyTaxBps;
            else if (isPool[to]) taxBps = sellTaxBps;
        }
        uint256 tax = value * taxBps / 10_000;
        if (tax != 0) _move(from, treasury, tax);
        _move(from, to, value - tax);
    }

    function _isExempt(address account) private view returns (bool) {
        return account == owner || account == treasury;
    }
}
