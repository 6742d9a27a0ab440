// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @notice Never deployed: the owner-power scan places this code, by state override in one
/// `eth_simulateV1` request, at the address of every account it makes calls as (a privileged caller,
/// a stranger, the victim holder, the pool that funds the victim). The lab then calls as that address.
/// Any other call reaches the account's own code, which the scan moves to `shadow`, so a contract
/// that holds a power (a controller, a multisig) keeps behaving as itself towards the token.
contract PowerPuppet {
    function powerCall(address target, bytes calldata data) external returns (bool ok, bytes memory ret) {
        (ok, ret) = target.call(data);
    }

    fallback() external payable {
        forward();
    }

    receive() external payable {
        forward();
    }

    function forward() internal {
        address original = address(uint160(uint256(keccak256(abi.encodePacked("power.shadow", address(this))))));
        if (original.code.length == 0) return;
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), original, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if iszero(ok) { revert(0, returndatasize()) }
            return(0, returndatasize())
        }
    }
}

/// @notice Runs the scan's trials: each a call as one caller, between two observations of the token
/// (supply, watched balances) and followed by the victim's sell-back probes, then undone by a revert
/// that carries the observations out. Every trial so starts from the same state.
contract PowerLab {
    struct Setup {
        address token;
        address pool;
        address victim;
        /// @dev Whose calls are twins: run only where a call of their group showed something (`trials`).
        address stranger;
        address[] watch;
    }

    struct Sell {
        bool ok;
        uint256 sent;
        uint256 received;
    }

    struct Seen {
        bool readOnly;
        bool ok;
        uint256 supplyBefore;
        uint256 supplyAfter;
        uint256[] before;
        uint256[] afterwards;
        Sell some;
        Sell all;
    }

    uint256 internal constant TRIAL_GAS = 1_500_000;
    /// @dev A write in a static call halts and burns all gas it was given: give it little.
    uint256 internal constant READ_GAS = 100_000;
    bytes1 internal constant READ = 0x01;
    bytes1 internal constant REVERTED = 0x02;

    /// @dev Hands the victim a small part of the first funder's balance that can pay, and lets the
    /// lab spend it (the sell probes' transferFrom, as a router's would be).
    function fund(address token, address[] calldata funders, address victim) external returns (uint256) {
        for (uint256 i; i < funders.length && balanceOf(token, victim) == 0; i++) {
            uint256 amount = balanceOf(token, funders[i]) / 1000;
            if (amount == 0) continue;
            PowerPuppet(payable(funders[i])).powerCall(token, abi.encodeWithSelector(0xa9059cbb, victim, amount));
        }
        PowerPuppet(payable(victim)).powerCall(token, abi.encodeWithSelector(0x095ea7b3, address(this), type(uint256).max));
        return balanceOf(token, victim);
    }

    /// @dev Calls come in groups, the same call by each candidate then by the stranger (its twin, which
    /// tells a power from a public effect). A call that was a read or reverted shows nothing, so a twin
    /// whose group's calls all were is not run: it is returned empty, as a trial past the gas left is
    /// (never half-run). A call with no data (the baseline) always runs.
    function trials(Setup calldata setup, address[] calldata callers, bytes[] calldata calls)
        external
        returns (bytes[] memory seen)
    {
        seen = new bytes[](calls.length);
        // Every trial starts from this state (each is undone by its revert), so what it sees before its
        // call is read once here, not by each trial.
        uint256 supply = supplyOf(setup.token);
        uint256[] memory held = balancesOf(setup.token, setup.watch);
        bool shown;
        for (uint256 i; i < calls.length && gasleft() > TRIAL_GAS * 2; i++) {
            bool twin = callers[i] == setup.stranger && calls[i].length > 0;
            if (twin && !shown) continue;
            try this.trial{gas: TRIAL_GAS}(setup, supply, held, callers[i], calls[i]) {}
            catch (bytes memory carried) {
                seen[i] = carried;
            }
            // A group ends with its twin; the baseline stands alone.
            shown = twin || calls[i].length == 0 ? false : shown || seen[i].length > 1;
        }
    }

    /// @dev Always reverts: with the abi-encoded `Seen`, or for a call that was a read or reverted (which
    /// show nothing) with the one byte READ or REVERTED. An empty `data` is the baseline: no call.
    /// `supply` and `held` are the token's supply and the watched balances in the state every trial
    /// starts from (read once by `trials`).
    function trial(
        Setup calldata setup,
        uint256 supply,
        uint256[] calldata held,
        address caller,
        bytes calldata data
    ) external {
        Seen memory seen;
        if (data.length > 0) {
            // A call that also passes as a static call writes nothing: a read, not a power.
            (bool answered, bytes memory ret) =
                caller.staticcall{gas: READ_GAS}(abi.encodeCall(PowerPuppet.powerCall, (setup.token, data)));
            if (answered) (seen.readOnly,) = abi.decode(ret, (bool, bytes));
            if (seen.readOnly) mark(READ);
        }
        seen.supplyBefore = supply;
        seen.before = held;
        if (data.length > 0) (seen.ok,) = PowerPuppet(payable(caller)).powerCall(setup.token, data);
        else seen.ok = true;
        // A reverted call changed nothing: its sells would be the baseline's, and the judge reads none.
        if (!seen.ok) mark(REVERTED);
        seen.supplyAfter = supplyOf(setup.token);
        seen.afterwards = balancesOf(setup.token, setup.watch);
        uint256 victimHolds = balanceOf(setup.token, setup.victim);
        seen.some = sellProbe(setup, victimHolds / 100);
        seen.all = sellProbe(setup, victimHolds);
        carry(seen);
    }

    /// @dev Always reverts, with (ok, received by the pool).
    function sell(address token, address victim, address pool, uint256 amount) external {
        uint256 before = balanceOf(token, pool);
        (bool ok, bytes memory ret) = token.call(abi.encodeWithSelector(0x23b872dd, victim, pool, amount));
        if (ok && ret.length >= 32) ok = abi.decode(ret, (bool));
        uint256 received = ok ? balanceOf(token, pool) - before : 0;
        bytes memory out = abi.encode(ok, received);
        assembly {
            revert(add(out, 32), mload(out))
        }
    }

    function sellProbe(Setup calldata setup, uint256 amount) internal returns (Sell memory result) {
        result.sent = amount;
        if (amount == 0) return result;
        try this.sell{gas: TRIAL_GAS / 4}(setup.token, setup.victim, setup.pool, amount) {}
        catch (bytes memory carried) {
            if (carried.length == 64) (result.ok, result.received) = abi.decode(carried, (bool, uint256));
        }
    }

    function mark(bytes1 what) internal pure {
        assembly {
            mstore(0, what)
            revert(0, 1)
        }
    }

    function carry(Seen memory seen) internal pure {
        bytes memory out = abi.encode(seen);
        assembly {
            revert(add(out, 32), mload(out))
        }
    }

    function balancesOf(address token, address[] calldata accounts) internal view returns (uint256[] memory out) {
        out = new uint256[](accounts.length);
        for (uint256 i; i < accounts.length; i++) {
            out[i] = balanceOf(token, accounts[i]);
        }
    }

    function balanceOf(address token, address account) internal view returns (uint256) {
        (bool ok, bytes memory ret) = token.staticcall(abi.encodeWithSelector(0x70a08231, account));
        return ok && ret.length >= 32 ? abi.decode(ret, (uint256)) : 0;
    }

    function supplyOf(address token) internal view returns (uint256) {
        (bool ok, bytes memory ret) = token.staticcall(abi.encodeWithSelector(0x18160ddd));
        return ok && ret.length >= 32 ? abi.decode(ret, (uint256)) : 0;
    }
}
