// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {TrapToken} from "./TrapToken.sol";

/// @notice A dividend token's guard, reduced to its gas rule: a transfer that touches a pool requires
/// the gas its distributor is budgeted before running it. An honest token, but one whose transfers use
/// far less gas than they require: a limit taken from what a simulation under a large limit used
/// makes every trade revert on chain.
contract GasGateToken is TrapToken {
    uint256 public constant DISTRIBUTOR_GAS = 400_000;
    uint256 public processed;

    constructor(uint256 supply) TrapToken("Gas Gate", "GATE", supply) {}

    function _transfer(address from, address to, uint256 value) internal override returns (bool) {
        if (isPool[from] || isPool[to]) {
            require(gasleft() >= DISTRIBUTOR_GAS, "distributor gas");
            processed += 1;
        }
        return super._transfer(from, to, value);
    }
}
