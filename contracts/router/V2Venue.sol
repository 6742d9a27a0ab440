// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {PoolAddress} from "./PoolAddress.sol";
import {RouterBase} from "./RouterBase.sol";
import {TokenCalls} from "./TokenCalls.sol";

/// @notice Uniswap v2-family pairs (any fork: its factory, init code hash and fee rule come from the
/// venue table), swapped directly: pay the pair, then call `swap`. The pair's reserves are read only
/// after it has been paid: a token may move them during its own transfer (swap its collected fees through
/// this pair, burn the pair's balance and `sync`), and the pair's K check uses the reserves as they are
/// when `swap` runs. Exact input is priced from what was paid, and when the pair refuses that (it received
/// less: a taxed input), as Uniswap's fee-on-transfer functions do, from what the pair holds above those
/// reserves, so taxed and reserve-moving sell tokens get exactly what K allows.
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
            (uint256 reserveIn, uint256 reserveOut) = _reserves(pair, zeroForOne);
            paidIn = _amountIn(leg, reserveIn, reserveOut, feePart, whole);
            _payLeg(leg, pair, paidIn);
            // The pair's own K check is what proves it was paid enough: when it passes, the payment the
            // reserves asked was received and nothing moved against it, with no read of ours.
            if (_swap(pair, zeroForOne ? 0 : out, zeroForOne ? out : 0, leg.to)) return (paidIn, out);
            paidIn += _topUp(leg, pair, zeroForOne, feePart, whole);
        } else {
            paidIn = leg.amount;
            _payLeg(leg, pair, paidIn);
            (uint256 reserveIn, uint256 reserveOut) = _reserves(pair, zeroForOne);
            // Priced first from what was paid, at the reserves after the payment (a token may have moved them);
            // the pair's K check accepts that only when it received it all. A taxed input makes it refuse:
            // then priced, as Uniswap's fee-on-transfer functions do, from what the pair holds above them.
            out = _amountOut(paidIn, reserveIn, reserveOut, feePart, whole);
            if (_swap(pair, zeroForOne ? 0 : out, zeroForOne ? out : 0, leg.to)) return (paidIn, out);
            out = _amountOut(TokenCalls.balanceOf(leg.tokenIn, pair) - reserveIn, reserveIn, reserveOut, feePart, whole);
        }
        if (!_swap(pair, zeroForOne ? 0 : out, zeroForOne ? out : 0, leg.to)) _bubble();
    }

    /// @dev UniswapV2Library.getAmountOut with the venue's fee. An input of 2^112 or more is refused: no v2
    /// pair can hold it (its reserves are 112 bits), and below it, with reserves below 2^112 (`_reserves`)
    /// and `whole` below 2^32, no product here overflows.
    function _amountOut(uint256 received, uint256 reserveIn, uint256 reserveOut, uint256 feePart, uint256 whole)
        private
        pure
        returns (uint256)
    {
        if (received >> 112 != 0) revert AmountTooLarge(received);
        unchecked {
            uint256 withFee = received * (whole - feePart);
            return withFee * reserveOut / (reserveIn * whole + withFee);
        }
    }

    /// @dev `pair.swap(amount0Out, amount1Out, to, "")`; whether it succeeded (`_bubble` passes a revert on).
    /// The pair has code: its reserves were read (`_reserves` refuses an empty answer) before any step
    /// reaches this call.
    function _swap(address pair, uint256 amount0Out, uint256 amount1Out, address to) private returns (bool ok) {
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, shl(224, 0x022c0d9f))
            mstore(add(m, 0x04), amount0Out)
            mstore(add(m, 0x24), amount1Out)
            mstore(add(m, 0x44), to)
            mstore(add(m, 0x64), 0x80)
            mstore(add(m, 0x84), 0)
            ok := call(gas(), pair, 0, m, 0xa4, 0, 0)
        }
    }

    /// @dev Reverts with the last call's revert data.
    function _bubble() private pure {
        assembly ("memory-safe") {
            let m := mload(0x40)
            returndatacopy(m, 0, returndatasize())
            revert(m, returndatasize())
        }
    }

    /// @notice After the pair refused an exact-out swap it was paid for at the reserves before the payment:
    /// what it still lacks, from its reserves and balance now, paid once. A token that moved the reserves
    /// against the taker during its transfer (fees swapped through this pair) is topped up by the
    /// shortfall, so the step still fills exactly, within its `limit` (checked on the total by the caller)
    /// and the plan's `amountIn`. A shortfall that remains (a taxed top-up), or one in a chained step, whose
    /// input the chain's next link already made to measure, reverts `PairInputShort`. No shortfall means
    /// the pair refused for another reason: the swap after this returns is refused again and passes it on.
    /// A move in the taker's favour (the pair's balance burnt and synced) never gets here: the first
    /// payment, which the quote priced, is above the need, the pair keeps the difference and the
    /// recipient still gets exactly the amount asked.
    /// @return topUp what was paid now
    function _topUp(Leg memory leg, address pair, bool zeroForOne, uint256 feePart, uint256 whole)
        private
        returns (uint256 topUp)
    {
        (uint256 reserveIn, uint256 reserveOut) = _reserves(pair, zeroForOne);
        uint256 needed = _amountIn(leg, reserveIn, reserveOut, feePart, whole);
        uint256 received = TokenCalls.balanceOf(leg.tokenIn, pair) - reserveIn;
        if (received >= needed) return 0;
        if (leg.fromRouter) revert PairInputShort(leg.index, received, needed);
        topUp = needed - received;
        _pay(leg.tokenIn, pair, topUp, false);
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
        // Reserves below 2^112 (`_reserves`), `out` below one, `whole` below 2^32 and above `feePart` (`_fee`):
        // no product here overflows and the divisor is at least 1.
        unchecked {
            return reserveIn * out * whole / ((reserveOut - out) * (whole - feePart)) + 1;
        }
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
