// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {PoolAddress} from "./PoolAddress.sol";
import {RouterBase} from "./RouterBase.sol";
import {TokenCalls} from "./TokenCalls.sol";

/// @notice Uniswap v2-family pairs (any fork: its factory, init code hash and fee rule come from the
/// venue table), swapped directly: pay the pair, then call `swap`. The pair's reserves are read only
/// after it has been paid: a token may move them during its own transfer (swap its collected fees through
/// this pair, burn the pair's balance and `sync`), and the pair's K check uses the reserves as they are
/// when `swap` runs. Exact input is priced, as Uniswap's fee-on-transfer functions do, from what the pair
/// holds above those reserves, so taxed and reserve-moving sell tokens get exactly what K allows.
abstract contract V2Venue is RouterBase {
    /// @param head the venue's table word (its fee rule); `deployer`, `initCodeHash`: its pairs' CREATE2
    function _swapV2(Leg memory leg, uint256 head, address deployer, bytes32 initCodeHash)
        internal
        returns (uint256 paidIn, uint256 out)
    {
        bool zeroForOne = leg.tokenIn < leg.tokenOut;
        address pair = zeroForOne
            ? PoolAddress.v2Pair(deployer, initCodeHash, leg.tokenIn, leg.tokenOut)
            : PoolAddress.v2Pair(deployer, initCodeHash, leg.tokenOut, leg.tokenIn);
        _checkPool(leg, leg.pool, pair);
        (uint256 feePart, uint256 whole) = _fee(leg, head, pair);
        if (leg.exactOut) {
            out = leg.amount;
            paidIn = _payExactOut(leg, pair, zeroForOne, feePart, whole);
        } else {
            _payLeg(leg, pair, leg.amount);
            paidIn = leg.amount;
            (uint256 reserveIn, uint256 reserveOut) = _reserves(pair, zeroForOne);
            uint256 withFee = (TokenCalls.balanceOf(leg.tokenIn, pair) - reserveIn) * (whole - feePart);
            out = withFee * reserveOut / (reserveIn * whole + withFee);
        }
        _swap(pair, zeroForOne ? 0 : out, zeroForOne ? out : 0, leg.to);
    }

    /// @dev `pair.swap(amount0Out, amount1Out, to, "")`, its revert passed on. The pair has code: its
    /// reserves were read (`_reserves` refuses an empty answer) before any step reaches this call.
    function _swap(address pair, uint256 amount0Out, uint256 amount1Out, address to) private {
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, shl(224, 0x022c0d9f))
            mstore(add(m, 0x04), amount0Out)
            mstore(add(m, 0x24), amount1Out)
            mstore(add(m, 0x44), to)
            mstore(add(m, 0x64), 0x80)
            mstore(add(m, 0x84), 0)
            if iszero(call(gas(), pair, 0, m, 0xa4, 0, 0)) {
                returndatacopy(m, 0, returndatasize())
                revert(m, returndatasize())
            }
        }
    }

    /// @notice Pays the pair for exactly `leg.amount` out: what the reserves ask before the payment, then,
    /// from the reserves and balance after it, what the pair still lacks. Returns everything paid.
    /// A token that moved the reserves against the taker during its transfer (fees swapped through this
    /// pair) is topped up once by the shortfall, so the step still fills exactly, within its `limit`
    /// (checked on the total by the caller) and the plan's `amountIn`. A shortfall that remains (a taxed
    /// top-up), or one in a chained step, whose input the chain's next link already made to measure,
    /// reverts `PairInputShort` instead of reaching the pair's K check. A move in the taker's favour (the
    /// pair's balance burnt and synced) leaves the first payment, which the quote priced, above the need:
    /// the pair keeps the difference, the recipient still gets exactly the amount asked.
    function _payExactOut(Leg memory leg, address pair, bool zeroForOne, uint256 feePart, uint256 whole)
        private
        returns (uint256 paid)
    {
        (uint256 reserveIn, uint256 reserveOut) = _reserves(pair, zeroForOne);
        paid = _amountIn(leg, reserveIn, reserveOut, feePart, whole);
        _payLeg(leg, pair, paid);
        (uint256 inNow, uint256 outNow) = _reserves(pair, zeroForOne);
        // Reserves that did not move ask exactly what was paid; moved ones are asked again.
        uint256 needed = inNow == reserveIn && outNow == reserveOut
            ? paid
            : _amountIn(leg, inNow, outNow, feePart, whole);
        uint256 received = TokenCalls.balanceOf(leg.tokenIn, pair) - inNow;
        if (received >= needed) return paid;
        if (leg.fromRouter) revert PairInputShort(leg.index, received, needed);
        _pay(leg.tokenIn, pair, needed - received, false);
        paid += needed - received;
        (reserveIn, reserveOut) = _reserves(pair, zeroForOne);
        needed = _amountIn(leg, reserveIn, reserveOut, feePart, whole);
        received = TokenCalls.balanceOf(leg.tokenIn, pair) - reserveIn;
        if (received < needed) revert PairInputShort(leg.index, received, needed);
    }

    /// @dev UniswapV2Library.getAmountIn with the venue's fee: the least input whose output reaches `leg.amount`.
    function _amountIn(Leg memory leg, uint256 reserveIn, uint256 reserveOut, uint256 feePart, uint256 whole)
        private
        pure
        returns (uint256)
    {
        uint256 out = leg.amount;
        if (out >= reserveOut) revert PartialFill(leg.index, reserveOut, out);
        return reserveIn * out * whole / ((reserveOut - out) * (whole - feePart)) + 1;
    }

    /// @dev `getReserves()`, its revert passed on; an answer short of three words (an address without
    /// code answers nothing) or a reserve past 112 bits reverts.
    function _reserves(address pair, bool zeroForOne) private view returns (uint256 reserveIn, uint256 reserveOut) {
        uint256 reserve0;
        uint256 reserve1;
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(0x00, shl(224, 0x0902f1ac))
            if iszero(staticcall(gas(), pair, 0x00, 0x04, m, 0x60)) {
                returndatacopy(m, 0, returndatasize())
                revert(m, returndatasize())
            }
            reserve0 := mload(m)
            reserve1 := mload(add(m, 0x20))
            if or(lt(returndatasize(), 0x60), shr(112, or(reserve0, reserve1))) { revert(0, 0) }
        }
        (reserveIn, reserveOut) = zeroForOne ? (reserve0, reserve1) : (reserve1, reserve0);
    }

    /// @notice The pair's fee as `feePart` out of `whole`: the venue's fixed fee, or (a fork that fixes
    /// each pair's fee) what the pair's getter returns. Calling the pair is safe only because `_checkPool`
    /// proved it is the venue's own CREATE2 deployment, running the venue's pair code; whatever it reports,
    /// its own K check still bounds the output, so a wrong figure can only make the swap revert (too low)
    /// or pay the taker less than the pair allows (too high), never move more than the plan's limits.
    function _fee(Leg memory leg, uint256 head, address pair) private view returns (uint256 feePart, uint256 whole) {
        bytes4 feeGetter = _feeGetterOf(head);
        if (feeGetter == bytes4(0)) return (_feeOf(head), FEE_PIPS);
        whole = _feeDenominatorOf(head);
        (bool ok, bytes memory result) = pair.staticcall(abi.encodeWithSelector(feeGetter));
        if (!ok || result.length != 32) revert BadPairFee(leg.index, 0);
        feePart = abi.decode(result, (uint256));
        if (feePart >= whole) revert BadPairFee(leg.index, feePart);
    }
}
