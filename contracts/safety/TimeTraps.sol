// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {TrapToken} from "./TrapToken.sol";

/// @notice A holder may sell only within 20 blocks of its last buy, then never: a round trip in the
/// next block sells fine, the holder who waits is locked in.
contract SellWindowToken is TrapToken {
    uint256 public constant WINDOW = 20;
    mapping(address => uint256) public boughtAt;

    constructor(uint256 supply) TrapToken("Short Window", "WINDOW", supply) {}

    function _transfer(address from, address to, uint256 value) internal override returns (bool) {
        if (_isSell(from, to)) require(block.number <= boughtAt[from] + WINDOW, "balance");
        if (isPool[from]) boughtAt[to] = block.number;
        return super._transfer(from, to, value);
    }
}

/// @notice Sells go through only in even blocks: whether a round trip sells depends on the block the
/// sell-back happens to land in.
contract ParityGateToken is TrapToken {
    constructor(uint256 supply) TrapToken("Even Only", "EVEN", supply) {}

    function _transfer(address from, address to, uint256 value) internal override returns (bool) {
        if (_isSell(from, to)) require(block.number % 2 == 0, "balance");
        return super._transfer(from, to, value);
    }
}

/// @notice A sell tax the owner sets at will (0 at launch): a quote measured at 0 % can be swapped
/// into at 90 %.
contract TaxRaiseToken is TrapToken {
    uint256 public sellTaxBps;

    constructor(uint256 supply) TrapToken("Raised Later", "RAISE", supply) {}

    function setSellTax(uint256 bps) external {
        require(msg.sender == owner && bps <= 10_000, "owner only");
        sellTaxBps = bps;
    }

    function _transfer(address from, address to, uint256 value) internal override returns (bool) {
        if (!_isSell(from, to) || sellTaxBps == 0) return super._transfer(from, to, value);
        uint256 tax = value * sellTaxBps / 10_000;
        super._transfer(from, owner, tax);
        return super._transfer(from, to, value - tax);
    }
}
