// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CurveVenue} from "./CurveVenue.sol";
import {INativeDeposit, IPermit2Allowance} from "./Externals.sol";
import {Holdings} from "./Holdings.sol";
import {PlanRules} from "./PlanRules.sol";
import {RouterBase} from "./RouterBase.sol";
import {TokenCalls} from "./TokenCalls.sol";
import {V2Venue} from "./V2Venue.sol";
import {V3Venue} from "./V3Venue.sol";
import {V4Venue} from "./V4Venue.sol";
import {VenueTable} from "./VenueTable.sol";

/// @title The service's router: executes one quoted plan (an ordered list of pool swaps) in one call.
/// @notice Safety design, in short:
/// - The taker is `msg.sender`, always: funds are taken only from it (ERC-20 `transferFrom`, its own
///   Permit2 allowance, or the native value it sent), never from an address in calldata.
/// - The router calls nothing a plan names except ERC-20 `transfer`/`transferFrom`/`approve`/`balanceOf`
///   on the plan's tokens; pools are computed by CREATE2 from the step's venue's deployer and init code
///   hash (v2, v3), or are that venue's PoolManager (v4) or launchpad, from the venue table fixed at
///   construction; there is no arbitrary call target and no arbitrary calldata. The one other call, a
///   per-pair v2 fee getter, is a view call to a pair verified the same way.
/// - Callbacks are accepted only from the one contract the current step is swapping with, once.
/// - One execution at a time (transient lock): a token, hook or pool re-entering any entry point fails.
/// - The result is judged by the recipient's balance of the buy token, not by what pools report.
/// - Nothing of a plan stays behind: everything the plan held in the router (its native deposit, outputs
///   kept for later steps) is swept back to the taker, and the only approval the router ever gives (to
///   the launchpad) is exact and reset. Only what the plan itself brought in counts: tokens sent to the
///   router outside a plan change no plan's amounts and are never paid out (`Holdings`).
/// - An exact-out path runs backwards, nested: each step asks the step before it for exactly its input,
///   so every step keeps its own limit (`PlanRules._leg`, `_link`).
/// - The plan is `bytes` read by offset with every read bounds-checked, in one encoding only (`PlanRules`).
contract TradeRouter is PlanRules, V2Venue, V3Venue, V4Venue, CurveVenue, VenueTable {
    constructor(Config memory config) RouterBase(config) VenueTable(config.venues) {}

    /// @param plan the plan's bytes (ITradeRouter.sol has the layout)
    function execute(bytes calldata plan) external payable returns (uint256 amountIn, uint256 amountOut) {
        return _run(_read(plan));
    }

    /// @notice Sets the taker's Permit2 allowance from its signed PermitSingle, then executes with it.
    function executeWithPermit(bytes calldata plan, PermitSingle calldata permit, bytes calldata signature)
        external
        returns (uint256 amountIn, uint256 amountOut)
    {
        Fields memory f = _read(plan);
        if (_funding(f.head) != FUNDING_PERMIT2 || permit.details.token != f.sellToken || permit.spender != address(this)) {
            revert PermitMismatch();
        }
        if (tExecution != 0) revert Reentrancy();
        // A signature seen in the mempool can be submitted by anyone first; it sets the same allowance for
        // the same owner, so a failed permit is no reason to fail: Permit2's transferFrom decides.
        try IPermit2Allowance(permit2).permit(msg.sender, permit, signature) {} catch {}
        return _run(f);
    }

    function _run(Fields memory f) private returns (uint256 amountIn, uint256 amountOut) {
        if (tExecution != 0) revert Reentrancy();
        uint256 maxIn = _begin(f);
        uint256 before = TokenCalls.balanceOf(f.buyToken, f.recipient);
        (uint256 count, uint256 p) = (f.stepCount, f.steps);
        // One leg for every step of the loop: `_leg` rewrites all of its fields.
        Leg memory leg;
        for (uint256 i; i < count;) {
            (i, p) = _leg(leg, f, p, i, maxIn);
            _exec(leg);
        }
        // The plan ends with its last step: trailing bytes would be a second encoding of it.
        if (p != f.end) revert MalformedPlan(p - f.start);
        // Only what this plan holds goes back: tokens that reached the router otherwise stay untouched.
        uint256 refunded = Holdings.sweep(msg.sender, f.sellToken);
        // What the taker actually spent: what left its funds (the whole native deposit, or what approval and
        // Permit2 moved) less the sell token the sweep just returned to it.
        amountIn = (_funding(f.head) == FUNDING_NATIVE ? f.amountIn : maxIn - tRemaining) - refunded;
        // maxIn is the plan's amountIn, resolved when it was WHOLE_BALANCE.
        if (!_exactOut(f.head) && amountIn != maxIn) revert InputNotSpent(amountIn, maxIn);
        uint256 balance = TokenCalls.balanceOf(f.buyToken, f.recipient);
        amountOut = balance > before ? balance - before : 0;
        if (amountOut < f.minAmountOut) revert InsufficientOutput(amountOut, f.minAmountOut);
        // Both amounts in one event word: a plan that moved more than 128 bits of either is refused.
        if (amountIn > type(uint128).max) revert AmountTooLarge(amountIn);
        if (amountOut > type(uint128).max) revert AmountTooLarge(amountOut);
        emit PlanExecuted(f.quoteTag, msg.sender, amountIn << 128 | amountOut, _planHash(f));
        tExecution = 0;
    }

    /// @return amountIn the plan's `amountIn`, resolved when it is `WHOLE_BALANCE`
    function _begin(Fields memory f) private returns (uint256 amountIn) {
        uint256 deadline = f.deadline;
        if (block.timestamp > deadline) revert DeadlineExpired(deadline, block.timestamp);
        _check(f, address(this), permit2);
        _refuseVenueRecipient(f.recipient);
        uint8 funding = _funding(f.head);
        if (funding > FUNDING_NATIVE) revert UnknownFunding(funding);
        tExecution = uint256(uint160(msg.sender)) | (uint256(funding) << 160);
        amountIn = f.amountIn;
        if (amountIn == WHOLE_BALANCE) {
            if (_exactOut(f.head) || funding == FUNDING_NATIVE) revert InvalidPlan();
            amountIn = TokenCalls.balanceOf(f.sellToken, msg.sender);
            if (amountIn == 0 || amountIn == WHOLE_BALANCE) revert InvalidPlan();
        }
        tRemaining = amountIn;
        if (funding != FUNDING_NATIVE) {
            if (msg.value != 0) revert UnexpectedValue(msg.value);
            return amountIn;
        }
        if (nativeMode == NATIVE_NONE || f.sellToken != usdc) revert NativeFundingUnavailable();
        if (msg.value != f.amountIn * NATIVE_PER_USDC_UNIT) revert UnexpectedValue(msg.value);
        // On Arc the value already is the router's USDC balance; on the devnet it is minted into one. Either
        // way the plan holds exactly the deposit, never whatever else the router's balance contains.
        if (nativeMode == NATIVE_DEPOSIT) INativeDeposit(usdc).deposit{value: msg.value}();
        Holdings.credit(usdc, f.amountIn);
    }

    /// @notice Runs one leg on its venue, holds for the plan what it left in the router, checks its limit.
    function _exec(Leg memory leg) private {
        bool keeps = leg.to == address(this);
        uint256 untracked = keeps ? Holdings.untracked(leg.tokenOut) : 0;
        uint256 paidIn;
        uint256 out;
        (uint256 head, uint256 deployer, bytes32 initCodeHash) = _venue(leg);
        uint8 family = _familyOf(head);
        if (family == FAMILY_V2) (paidIn, out) = _swapV2(leg, head, _deployerOf(deployer), initCodeHash);
        else if (family == FAMILY_V3) (paidIn, out) = _swapV3(leg, deployer, initCodeHash);
        else if (family == FAMILY_V4) (paidIn, out) = _swapV4(leg, _registryOf(head));
        else (paidIn, out) = _swapCurve(leg, _registryOf(head));
        if (keeps) Holdings.creditSince(leg.tokenOut, untracked);
        if (leg.exactOut) {
            if (paidIn > leg.limit) revert StepInputTooHigh(leg.index, paidIn, leg.limit);
        } else if (out < leg.limit) {
            revert StepOutputTooLow(leg.index, out, leg.limit);
        }
    }

    /// @dev Every external function of the router, its constants' getters included; a v3 fork's callback
    /// name equal to one of them would never reach the fallback (test/router/venueTable.test.ts holds this
    /// list equal to the compiled ABI).
    function _isOwnSelector(bytes4 name) internal pure override returns (bool) {
        bytes4[17] memory own = [
            this.execute.selector,
            this.executeWithPermit.selector,
            this.uniswapV3SwapCallback.selector,
            this.unlockCallback.selector,
            this.venueCount.selector,
            this.venueAt.selector,
            this.permit2.selector,
            this.usdc.selector,
            this.nativeMode.selector,
            this.FAMILY_V2.selector,
            this.FAMILY_V3.selector,
            this.FAMILY_V4.selector,
            this.FAMILY_LAUNCHPAD.selector,
            this.NATIVE_NONE.selector,
            this.NATIVE_DEPOSIT.selector,
            this.NATIVE_SAME_BALANCE.selector,
            this.PLAN_ENCODING.selector
        ];
        for (uint256 i; i < own.length; ++i) {
            if (own[i] == name) return true;
        }
        return false;
    }

    /// @notice A chained exact-out step's input: its next link, run for exactly `amount` into the router.
    function _provide(Leg memory leg, uint256 amount) internal override {
        if (leg.links != 0) _exec(_link(leg, amount));
    }

    /// @notice A chained exact-out step's payment to `to`, its pool: the next link's pool sends its exact
    /// output there itself, so the input never passes through the router. A v2, v3 or v4 link delivers
    /// exactly what it was asked to any address (`PartialFill` otherwise), and `to`, the pool that asked,
    /// checks its own balance (v3: its callback check; v2: its K check, and `PairInputShort`), so a short
    /// delivery (a taxed input) reverts there. A launchpad link may buy more than asked: it delivers into
    /// the plan's holding, as `_provide` does, whose excess the sweep returns to the taker, and the router
    /// pays `to` exactly `amount` from it.
    function _deliver(Leg memory leg, address to, uint256 amount) internal override {
        Leg memory link = _link(leg, amount);
        if (_familyAt(link.index, link.venue) == FAMILY_LAUNCHPAD) {
            _exec(link);
            _pay(leg.tokenIn, to, amount, true);
            return;
        }
        link.to = to;
        _exec(link);
    }
}
