// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20Balance, ILaunchpadCurve} from "./Externals.sol";
import {Holdings} from "./Holdings.sol";
import {RouterBase} from "./RouterBase.sol";
import {TokenCalls} from "./TokenCalls.sol";

/// @notice The launchpad's bonding curve (tokens not yet graduated), quoted in USDC. The launchpad pulls
/// from and pays to its caller, so input and output pass through the router: the input with an
/// exact-amount approval that the launchpad spends in full (and that is reset if it ever did not), the
/// output forwarded as measured by the router's own balance.
///
/// The curve has no exact-output trade: an exact-out step pays the least input whose output reaches the
/// amount at the curve's reserves when the step runs (read from the launchpad, the price the trade will
/// get), so a trade ahead of the taker's is absorbed up to the step's `limit` instead of reverting. What
/// that input buys is at least the amount and at most one input unit's worth more, all delivered.
abstract contract CurveVenue is RouterBase {
    /// @param launchpad the venue's launchpad (its table registry)
    function _swapCurve(Leg memory leg, address launchpad) internal returns (uint256 paidIn, uint256 out) {
        if (leg.pool != launchpad) revert ForgedPool(leg.index, leg.pool, launchpad);
        bool isBuy = leg.tokenIn == usdc;
        if (!isBuy && leg.tokenOut != usdc) revert InvalidStep(leg.index);
        paidIn = leg.exactOut ? _leastInput(leg, launchpad, isBuy) : leg.amount;
        // Into the router, for the launchpad to pull: the taker's payment, or a debit of the plan's holding
        // (in an exact-out chain, made first by the chain's next link).
        if (leg.fromRouter) {
            _provide(leg, paidIn);
            Holdings.debit(leg.tokenIn, paidIn);
        } else {
            _pay(leg.tokenIn, address(this), paidIn, false);
        }
        uint256 before = TokenCalls.balanceOf(leg.tokenOut, address(this));
        TokenCalls.approve(leg.tokenIn, launchpad, paidIn);
        if (isBuy) ILaunchpadCurve(launchpad).buy(leg.tokenOut, paidIn, 0);
        else ILaunchpadCurve(launchpad).sell(leg.tokenIn, paidIn, 0);
        uint256 unspent = IERC20Balance(leg.tokenIn).allowance(address(this), launchpad);
        if (unspent != 0) {
            // What the launchpad did not take is still the plan's: reset the approval and hold it for the sweep.
            TokenCalls.approve(leg.tokenIn, launchpad, 0);
            Holdings.credit(leg.tokenIn, unspent);
        }
        out = TokenCalls.balanceOf(leg.tokenOut, address(this)) - before;
        if (leg.exactOut && out < leg.amount) revert PartialFill(leg.index, out, leg.amount);
        if (leg.to != address(this)) TokenCalls.transfer(leg.tokenOut, leg.to, out);
    }

    /// @dev The least x with floor(reserveOut·x / (reserveIn + x)) >= amount (the launchpad's rounding),
    /// i.e. x·(reserveOut − amount) >= amount·reserveIn.
    function _leastInput(Leg memory leg, address launchpad, bool isBuy) private view returns (uint256) {
        (uint256 usdcReserve, uint256 tokenReserve) =
            ILaunchpadCurve(launchpad).curveReserves(isBuy ? leg.tokenOut : leg.tokenIn);
        (uint256 reserveIn, uint256 reserveOut) = isBuy ? (usdcReserve, tokenReserve) : (tokenReserve, usdcReserve);
        uint256 wanted = leg.amount;
        if (wanted >= reserveOut) revert PartialFill(leg.index, reserveOut, wanted);
        uint256 rest = reserveOut - wanted;
        return (wanted * reserveIn + rest - 1) / rest;
    }
}
