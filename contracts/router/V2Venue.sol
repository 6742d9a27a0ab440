// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IUniswapV2PairSwap} from "./Externals.sol";
import {PoolAddress} from "./PoolAddress.sol";
import {RouterBase} from "./RouterBase.sol";
import {TokenCalls} from "./TokenCalls.sol";

/// @notice Uniswap v2 pairs, swapped directly: pay the pair, then call `swap`. Exact-in output is priced
/// from what the pair actually received (its balance above its reserve), so fee-on-transfer sell tokens
/// get exactly what the pair's own K check allows.
abstract contract V2Venue is RouterBase {
    function _swapV2(Leg memory leg) internal returns (uint256 paidIn, uint256 out) {
        if (v2Factory == address(0)) revert VenueUnavailable(leg.index);
        (address token0, address token1) = PoolAddress.sort(leg.tokenIn, leg.tokenOut);
        address pair = PoolAddress.v2Pair(v2Factory, v2PairInitCodeHash, token0, token1);
        _checkPool(leg, leg.pool, pair);
        bool zeroForOne = leg.tokenIn == token0;
        (uint112 reserve0, uint112 reserve1,) = IUniswapV2PairSwap(pair).getReserves();
        (uint256 reserveIn, uint256 reserveOut) = zeroForOne ? (reserve0, reserve1) : (reserve1, reserve0);
        if (leg.exactOut) {
            out = leg.amount;
            if (out >= reserveOut) revert PartialFill(leg.index, reserveOut, out);
            // UniswapV2Library.getAmountIn: the least input whose 0.3 %-fee output reaches `out`.
            paidIn = reserveIn * out * 1000 / ((reserveOut - out) * 997) + 1;
            _payLeg(leg, pair, paidIn);
        } else {
            _payLeg(leg, pair, leg.amount);
            paidIn = leg.amount;
            uint256 received = TokenCalls.balanceOf(leg.tokenIn, pair) - reserveIn;
            uint256 withFee = received * 997;
            out = withFee * reserveOut / (reserveIn * 1000 + withFee);
        }
        IUniswapV2PairSwap(pair).swap(zeroForOne ? 0 : out, zeroForOne ? out : 0, leg.to, "");
    }
}
