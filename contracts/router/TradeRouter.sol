// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CurveVenue} from "./CurveVenue.sol";
import {INativeDeposit, IPermit2Allowance} from "./Externals.sol";
import {RouterBase} from "./RouterBase.sol";
import {TokenCalls} from "./TokenCalls.sol";
import {V2Venue} from "./V2Venue.sol";
import {V3Venue} from "./V3Venue.sol";
import {V4Venue} from "./V4Venue.sol";

/// @title The service's router: executes one quoted plan (an ordered list of pool swaps) in one call.
/// @notice Safety design, in short:
/// - The taker is `msg.sender`, always: funds are taken only from it (ERC-20 `transferFrom`, its own
///   Permit2 allowance, or the native value it sent), never from an address in calldata.
/// - The router calls nothing a plan names except ERC-20 `transfer`/`transferFrom`/`approve`/`balanceOf`
///   on the plan's tokens; pools are computed from the configured factories (v2, v3), are the configured
///   PoolManager (v4) or launchpad; there is no arbitrary call target and no arbitrary calldata.
/// - Callbacks are accepted only from the one contract the current step is swapping with, once.
/// - One execution at a time (transient lock): a token, hook or pool re-entering any entry point fails.
/// - The result is judged by the recipient's balance of the buy token, not by what pools report.
/// - Nothing stays behind: every token the router held during the call is swept back to the taker, and
///   the only approval it ever gives (to the launchpad) is exact and reset.
contract TradeRouter is V2Venue, V3Venue, V4Venue, CurveVenue {
    constructor(Config memory config) RouterBase(config) {}

    function execute(Plan calldata plan) external payable returns (uint256 amountIn, uint256 amountOut) {
        return _run(plan);
    }

    /// @notice Sets the taker's Permit2 allowance from its signed PermitSingle, then executes with it.
    function executeWithPermit(Plan calldata plan, PermitSingle calldata permit, bytes calldata signature)
        external
        returns (uint256 amountIn, uint256 amountOut)
    {
        if (plan.funding != FUNDING_PERMIT2 || permit.details.token != plan.sellToken || permit.spender != address(this))
        {
            revert PermitMismatch();
        }
        if (tExecution != 0) revert Reentrancy();
        // A signature seen in the mempool can be submitted by anyone first; it sets the same allowance for
        // the same owner, so a failed permit is no reason to fail: Permit2's transferFrom decides.
        try IPermit2Allowance(permit2).permit(msg.sender, permit, signature) {} catch {}
        return _run(plan);
    }

    function _run(Plan calldata plan) private returns (uint256 amountIn, uint256 amountOut) {
        _begin(plan);
        uint256 count = plan.steps.length;
        // Tokens the router may hold between steps: swept to the taker at the end.
        address[] memory held = new address[](count + 1);
        uint256 heldCount;
        if (plan.funding == FUNDING_NATIVE) held[heldCount++] = plan.sellToken;
        uint256 before = TokenCalls.balanceOf(plan.buyToken, plan.recipient);
        for (uint256 i; i < count; ++i) {
            if (_step(plan, i)) held[heldCount++] = plan.steps[i].tokenOut;
        }
        uint256 refunded = _sweep(held, heldCount, plan.sellToken);
        amountIn = plan.funding == FUNDING_NATIVE ? plan.amountIn - refunded : tPaid;
        // tMaxIn is the plan's amountIn, resolved when it was WHOLE_BALANCE.
        if (!plan.exactOut && amountIn != tMaxIn) revert InputNotSpent(amountIn, tMaxIn);
        uint256 balance = TokenCalls.balanceOf(plan.buyToken, plan.recipient);
        amountOut = balance > before ? balance - before : 0;
        if (amountOut < plan.minAmountOut) revert InsufficientOutput(amountOut, plan.minAmountOut);
        emit PlanExecuted(
            plan.quoteTag, msg.sender, plan.recipient, plan.sellToken, plan.buyToken, amountIn, amountOut
        );
        tExecution = 0;
        tPaid = 0;
        tMaxIn = 0;
    }

    function _begin(Plan calldata plan) private {
        if (tExecution != 0) revert Reentrancy();
        if (block.timestamp > plan.deadline) revert DeadlineExpired(plan.deadline, block.timestamp);
        address recipient = plan.recipient;
        if (
            recipient == address(0) || recipient == address(this) || recipient == poolManager
                || recipient == launchpad || recipient == permit2
        ) revert InvalidRecipient(recipient);
        if (plan.steps.length == 0) revert EmptyPlan();
        if (plan.sellToken == plan.buyToken || plan.sellToken == address(0) || plan.buyToken == address(0)) {
            revert InvalidPlan();
        }
        uint8 funding = plan.funding;
        if (funding > FUNDING_NATIVE) revert UnknownFunding(funding);
        tExecution = uint256(uint160(msg.sender)) | (uint256(funding) << 160);
        uint256 amountIn = plan.amountIn;
        if (amountIn == WHOLE_BALANCE) {
            if (plan.exactOut || funding == FUNDING_NATIVE) revert InvalidPlan();
            amountIn = TokenCalls.balanceOf(plan.sellToken, msg.sender);
            if (amountIn == 0 || amountIn == WHOLE_BALANCE) revert InvalidPlan();
        }
        tMaxIn = amountIn;
        if (funding != FUNDING_NATIVE) {
            if (msg.value != 0) revert UnexpectedValue(msg.value);
            return;
        }
        if (nativeMode == NATIVE_NONE || plan.sellToken != usdc) revert NativeFundingUnavailable();
        if (msg.value != plan.amountIn * NATIVE_PER_USDC_UNIT) revert UnexpectedValue(msg.value);
        // On Arc the value already is the router's USDC balance; on the devnet it is minted into one.
        if (nativeMode == NATIVE_DEPOSIT) INativeDeposit(usdc).deposit{value: msg.value}();
    }

    /// @return keeps whether the step's output stayed in the router.
    function _step(Plan calldata plan, uint256 i) private returns (bool keeps) {
        Step calldata step = plan.steps[i];
        Leg memory leg = _leg(plan, step, i);
        uint256 paidIn;
        uint256 out;
        uint8 venue = step.venue;
        if (venue == VENUE_V2) (paidIn, out) = _swapV2(step.pool, leg);
        else if (venue == VENUE_V3) (paidIn, out) = _swapV3(step.pool, step.fee, leg);
        else if (venue == VENUE_V4) (paidIn, out) = _swapV4(step.pool, step.fee, step.tickSpacing, step.hooks, leg);
        else if (venue == VENUE_CURVE) (paidIn, out) = _swapCurve(step.pool, leg);
        else revert UnknownVenue(i, venue);
        if (leg.exactOut) {
            if (paidIn > step.limit) revert StepInputTooHigh(i, paidIn, step.limit);
        } else if (out < step.limit) {
            revert StepOutputTooLow(i, out, step.limit);
        }
        return leg.to == address(this);
    }

    function _leg(Plan calldata plan, Step calldata step, uint256 i) private view returns (Leg memory leg) {
        uint8 flags = step.flags;
        if (flags > (EXACT_OUT | FROM_ROUTER | TO_ROUTER)) revert InvalidStep(i);
        address tokenIn = step.tokenIn;
        address tokenOut = step.tokenOut;
        if (tokenIn == tokenOut || tokenIn == address(0) || tokenOut == address(0)) revert InvalidStep(i);
        bool fromRouter = flags & FROM_ROUTER != 0;
        bool toRouter = flags & TO_ROUTER != 0;
        bool exactOut = flags & EXACT_OUT != 0;
        // The taker pays only in the sell token; only the buy token goes to the recipient.
        if (!fromRouter && tokenIn != plan.sellToken) revert PayerTokenMismatch(i);
        if (!toRouter && tokenOut != plan.buyToken) revert OutputTokenMismatch(i);
        uint256 amount = step.amount;
        if (!fromRouter && !exactOut && amount == WHOLE_BALANCE) amount = tMaxIn;
        if (fromRouter && !exactOut) {
            if (amount > SHARE_ONE) revert ShareTooLarge(i);
            amount = TokenCalls.balanceOf(tokenIn, address(this)) * amount / SHARE_ONE;
        }
        if (amount == 0) revert InvalidStep(i);
        leg = Leg({
            index: i,
            tokenIn: tokenIn,
            tokenOut: tokenOut,
            to: toRouter ? address(this) : plan.recipient,
            recipient: plan.recipient,
            fromRouter: fromRouter,
            exactOut: exactOut,
            amount: amount
        });
    }

    /// @return refunded how much of the sell token went back to the taker
    function _sweep(address[] memory held, uint256 count, address sellToken) private returns (uint256 refunded) {
        for (uint256 i; i < count; ++i) {
            address token = held[i];
            bool seen;
            for (uint256 j; j < i && !seen; ++j) {
                seen = held[j] == token;
            }
            if (seen) continue;
            uint256 balance = TokenCalls.balanceOf(token, address(this));
            if (balance == 0) continue;
            TokenCalls.transfer(token, msg.sender, balance);
            if (token == sellToken) refunded += balance;
        }
    }
}
