// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IUniswapV2PairSwap} from "./Externals.sol";
import {PoolAddress} from "./PoolAddress.sol";
import {RouterBase} from "./RouterBase.sol";
import {TokenCalls} from "./TokenCalls.sol";

/// @notice Uniswap v2-family pairs (any fork: its factory, init code hash and fee rule come from the
/// venue table), swapped directly: pay the pair, then call `swap`. Exact-in output is priced from what
/// the pair actually received (its balance above its reserve), so fee-on-transfer sell tokens get
/// exactly what the pair's own K check allows.
abstract contract V2Venue is RouterBase {
    function _swapV2(Leg memory leg, VenueConfig memory venue) internal returns (uint256 paidIn, uint256 out) {
        bool zeroForOne = leg.tokenIn < leg.tokenOut;
        address pair = zeroForOne
            ? PoolAddress.v2Pair(venue.deployer, venue.initCodeHash, leg.tokenIn, leg.tokenOut)
            : PoolAddress.v2Pair(venue.deployer, venue.initCodeHash, leg.tokenOut, leg.tokenIn);
        _checkPool(leg, leg.pool, pair);
        (uint256 reserveIn, uint256 reserveOut) = _reserves(pair, zeroForOne);
        (uint256 feePart, uint256 whole) = _fee(leg, venue, pair);
        if (leg.exactOut) {
            out = leg.amount;
            if (out >= reserveOut) revert PartialFill(leg.index, reserveOut, out);
            // UniswapV2Library.getAmountIn with the venue's fee: the least input whose output reaches `out`.
            paidIn = reserveIn * out * whole / ((reserveOut - out) * (whole - feePart)) + 1;
            _payLeg(leg, pair, paidIn);
        } else {
            _payLeg(leg, pair, leg.amount);
            paidIn = leg.amount;
            uint256 withFee = (TokenCalls.balanceOf(leg.tokenIn, pair) - reserveIn) * (whole - feePart);
            out = withFee * reserveOut / (reserveIn * whole + withFee);
        }
        IUniswapV2PairSwap(pair).swap(zeroForOne ? 0 : out, zeroForOne ? out : 0, leg.to, "");
    }

    function _reserves(address pair, bool zeroForOne) private view returns (uint256 reserveIn, uint256 reserveOut) {
        (uint112 reserve0, uint112 reserve1,) = IUniswapV2PairSwap(pair).getReserves();
        (reserveIn, reserveOut) = zeroForOne ? (reserve0, reserve1) : (reserve1, reserve0);
    }

    /// @notice The pair's fee as `feePart` out of `whole`: the venue's fixed fee, or (a fork that fixes
    /// each pair's fee) what the pair's getter returns. Calling the pair is safe only because `_checkPool`
    /// proved it is the venue's own CREATE2 deployment, running the venue's pair code; whatever it reports,
    /// its own K check still bounds the output, so a wrong figure can only make the swap revert (too low)
    /// or pay the taker less than the pair allows (too high), never move more than the plan's limits.
    function _fee(Leg memory leg, VenueConfig memory venue, address pair)
        private
        view
        returns (uint256 feePart, uint256 whole)
    {
        if (venue.feeGetter == bytes4(0)) return (venue.fee, FEE_PIPS);
        whole = venue.feeDenominator;
        (bool ok, bytes memory result) = pair.staticcall(abi.encodeWithSelector(venue.feeGetter));
        if (!ok || result.length != 32) revert BadPairFee(leg.index, 0);
        feePart = abi.decode(result, (uint256));
        if (feePart >= whole) revert BadPairFee(leg.index, feePart);
    }
}
