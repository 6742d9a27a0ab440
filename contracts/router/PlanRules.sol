// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Holdings} from "./Holdings.sol";
import {RouterBase} from "./RouterBase.sol";

/// @notice The plan's decoder and the checks a plan passes before anything moves: the plan is `bytes`
/// (ITradeRouter.sol has the layout), read by offset straight from calldata, every read checked against
/// the plan's end first, so a truncated plan, an amount of more than a word or with a leading zero byte,
/// and bytes after the last step all revert `MalformedPlan(offset)`. With the head's spare bits, the flags'
/// spare bits and the key kind checked against the venue's family, every plan has exactly one encoding,
/// which is what lets `planHash` hash its bytes as sent.
abstract contract PlanRules is RouterBase {
    uint256 internal constant LINK = EXACT_OUT | FROM_ROUTER | TO_ROUTER;
    uint256 internal constant LAST_LINK = EXACT_OUT | TO_ROUTER;
    /// @dev A step's flags bits 3-4: which pool key fields follow (none, a fee, or fee, tick spacing, hooks).
    uint256 private constant KEY_FEE = 1;
    uint256 private constant KEY_V4 = 2;
    /// @dev quoteTag (32), head (1), deadline (6), sellToken, buyToken, recipient (20 each).
    uint256 private constant HEADER = 99;
    /// @dev Where the bytes `planHash` covers begin: after the quote tag, head and deadline.
    uint256 private constant HASHED_FROM = 39;

    /// @notice A plan's own fields, read from calldata once, and where its steps are. `start` and `end`
    /// are the plan's first byte and its end in calldata; `steps` the first step's offset.
    struct Fields {
        bytes32 quoteTag;
        address sellToken;
        address buyToken;
        address recipient;
        uint256 head;
        uint256 deadline;
        uint256 amountIn;
        uint256 minAmountOut;
        uint256 stepCount;
        uint256 start;
        uint256 end;
        uint256 steps;
    }

    function _read(bytes calldata plan) internal pure returns (Fields memory f) {
        uint256 start;
        uint256 end;
        assembly ("memory-safe") {
            start := plan.offset
            end := add(start, plan.length)
        }
        if (plan.length < HEADER) revert MalformedPlan(HEADER);
        bytes32 tag;
        uint256 word;
        address sellToken;
        address buyToken;
        address recipient;
        assembly ("memory-safe") {
            tag := calldataload(start)
            word := calldataload(add(start, 32))
            sellToken := shr(96, calldataload(add(start, 39)))
            buyToken := shr(96, calldataload(add(start, 59)))
            recipient := shr(96, calldataload(add(start, 79)))
        }
        (f.quoteTag, f.sellToken, f.buyToken, f.recipient) = (tag, sellToken, buyToken, recipient);
        f.head = word >> 248;
        f.deadline = uint48(word >> 200);
        (f.start, f.end) = (start, end);
        // Offsets within calldata (the ABI decoder bounded `plan` by its size): no sum here can overflow.
        unchecked {
            uint256 p;
            (f.amountIn, p) = _amount(start + HEADER, end, start);
            (f.minAmountOut, p) = _amount(p, end, start);
            if (p + 1 > end) revert MalformedPlan(p + 1 - start);
            uint256 count;
            assembly ("memory-safe") {
                count := byte(0, calldataload(p))
            }
            (f.stepCount, f.steps) = (count, p + 1);
        }
    }

    /// @notice The head byte's fields: `funding` in bits 0-1, `exactOut` in bit 2 (`_check` refuses the rest).
    function _funding(uint256 head) internal pure returns (uint8) {
        return uint8(head & 3);
    }

    function _exactOut(uint256 head) internal pure returns (bool) {
        return head & 4 != 0;
    }

    /// @notice What `PlanExecuted.planHash` carries: keccak256 of one byte `exactOut` (0 or 1) and the plan's
    /// bytes after its deadline, i.e. the sell and buy token, the recipient, the amounts and every step
    /// exactly as sent, so the event need
    /// not repeat the tokens or the recipient. The quote tag, funding and deadline are left out: they are
    /// how and when a plan is sent, not what it trades (`swap/tx` changes the deadline of a plan `swap`
    /// built). Hashing the bytes is hashing the plan because a plan has one encoding (above), and the hash
    /// is taken only after the plan loop has read every step and found the plan ending exactly there.
    function _planHash(Fields memory f) internal pure returns (bytes32 hash) {
        uint256 from;
        uint256 size;
        // `_read` found the plan at least HEADER long, and HEADER > HASHED_FROM.
        unchecked {
            from = f.start + HASHED_FROM;
            size = f.end - from;
        }
        // `exactOut` lives in the head byte, outside the hashed bytes: one byte of it first.
        uint256 isExactOut = f.head >> 2 & 1;
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore8(m, isExactOut)
            calldatacopy(add(m, 1), from, size)
            hash := keccak256(m, add(size, 1))
        }
    }

    /// @notice Refuses a plan whose recipient is zero, the router (`self`) or `permit2`, or that has no
    /// steps, or whose tokens are missing or equal, or whose head has bits beyond its fields (`funding`
    /// is checked when it is used).
    function _check(Fields memory f, address self, address permit2_) internal pure {
        if (f.head >> 3 != 0) revert InvalidPlan();
        address recipient = f.recipient;
        if (recipient == address(0) || recipient == self || recipient == permit2_) {
            revert InvalidRecipient(recipient);
        }
        if (f.stepCount == 0) revert EmptyPlan();
        if (f.sellToken == f.buyToken || f.sellToken == address(0) || f.buyToken == address(0)) {
            revert InvalidPlan();
        }
    }

    /// @notice Reads step `i` at calldata offset `p` into `step`, every field of it, and returns the index
    /// and offset of the next step the plan loop runs. The loop reuses one `Leg` for all its steps (a leg is
    /// done with when its `_exec` returns: callbacks carry what they need), so only the first costs an
    /// allocation. A taker-paid step's input is the sell token and a step paying the recipient makes the
    /// buy token: the plan does not encode them, so no step can name another. An exact-out step from the
    /// router heads a chain: the links after it, each exact-out into the router and making the input of the
    /// one above, down to one the taker pays, run nested inside it (`_link`), each for exactly what the step
    /// above owes, so every step keeps its own limit however the pools moved.
    /// @param maxIn the plan's resolved `amountIn`
    function _leg(Leg memory step, Fields memory f, uint256 p, uint256 i, uint256 maxIn)
        internal
        view
        returns (uint256 nextIndex, uint256 next)
    {
        // Offsets within calldata and a step index below 256: no sum here can overflow.
        unchecked {
            (uint256 start, uint256 end) = (f.start, f.end);
            uint256 word;
            assembly ("memory-safe") {
                word := calldataload(p)
            }
            p += 22;
            if (p > end) revert MalformedPlan(p - start);
            uint256 flags = word >> 240 & 0xff;
            step.venue = uint8(word >> 248);
            step.pool = address(uint160(word >> 80));
            _keyKindIs(i, word >> 248, flags);
            (step.tokenIn, step.tokenOut) = (f.sellToken, f.buyToken);
            if (flags & FROM_ROUTER != 0) (step.tokenIn, p) = (_address(p), p + 20);
            if (flags & TO_ROUTER != 0) (step.tokenOut, p) = (_address(p), p + 20);
            p = _key(step, p, flags);
            if (p > end) revert MalformedPlan(p - start);
            (step.amount, p) = _amount(p, end, start);
            (step.limit, p) = _amount(p, end, start);
            _fill(step, i, flags, f.recipient);
            step.sellToken = f.sellToken;
            (step.links, step.linksEnd) = (0, 0);
            (nextIndex, next) = (i + 1, p);
        }
        if (step.exactOut && step.fromRouter) {
            (step.links, step.linksEnd) = (p, 0);
            (nextIndex, next) = _chainEnd(f, p, i);
            step.linksEnd = next;
        } else if (!step.fromRouter && !step.exactOut && step.amount == WHOLE_BALANCE) {
            step.amount = maxIn;
        } else if (step.fromRouter) {
            if (step.amount > SHARE_ONE) revert ShareTooLarge(i);
            step.amount = Holdings.amountOf(step.tokenIn) * step.amount / SHARE_ONE;
        }
        if (step.amount == 0) revert InvalidStep(i);
    }

    /// @notice The chain's next link below `above`, asked for exactly `amount` (what `above` owes), read
    /// from `above.links` in the calldata of the frame running `above`. A link's output is the input of the
    /// step above and its amount is what that step owes, so the plan encodes neither; the last link's input
    /// is the sell token. `_chainEnd` checked the links' shape and bounds when the chain's head was read;
    /// they are read again here field by field, with their venue's family, before they run.
    function _link(Leg memory above, uint256 amount) internal view returns (Leg memory step) {
        // Offsets within calldata and a step index below 256: no sum here can overflow.
        unchecked {
            (uint256 p, uint256 end, uint256 i) = (above.links, above.linksEnd, above.index + 1);
            uint256 word;
            assembly ("memory-safe") {
                word := calldataload(p)
            }
            p += 22;
            uint256 flags = word >> 240 & 0xff;
            step.venue = uint8(word >> 248);
            step.pool = address(uint160(word >> 80));
            _keyKindIs(i, word >> 248, flags);
            (step.tokenIn, step.tokenOut) = (above.sellToken, above.tokenIn);
            if (flags & 7 == LINK) (step.tokenIn, p) = (_address(p), p + 20);
            else if (flags & 7 != LAST_LINK) revert InvalidStep(i);
            p = _key(step, p, flags);
            if (p > end) revert InvalidStep(i);
            (step.limit, p) = _amount(p, end, 0);
            step.amount = amount;
            _fill(step, i, flags, above.recipient);
            step.sellToken = above.sellToken;
            (step.links, step.linksEnd) = flags & 7 == LINK ? (p, end) : (0, 0);
        }
    }

    /// @dev The end (index and offset) of the chain whose head is step `i`, its links starting at `p`:
    /// links (EXACT_OUT|FROM_ROUTER|TO_ROUTER) down to the last one (EXACT_OUT|TO_ROUTER), each a venue,
    /// flags, pool, its input if it is not the last, its pool key and its limit. Checks every link's shape
    /// and bounds now, so the links that run later inside a pool's callback are the plan's own bytes.
    function _chainEnd(Fields memory f, uint256 p, uint256 i) private pure returns (uint256, uint256) {
        // Offsets within calldata and a step index below 256: no sum here can overflow.
        unchecked {
            (uint256 start, uint256 end, uint256 count) = (f.start, f.end, f.stepCount);
            uint256 role;
            do {
                ++i;
                if (i >= count) revert InvalidStep(i);
                uint256 flags;
                assembly ("memory-safe") {
                    flags := byte(1, calldataload(p))
                }
                uint256 kind = flags >> 3;
                role = flags & 7;
                if (kind > KEY_V4 || (role != LINK && role != LAST_LINK)) revert InvalidStep(i);
                p += 22 + (role == LINK ? 20 : 0) + (kind == KEY_V4 ? 26 : kind * 3);
                if (p > end) revert MalformedPlan(p - start);
                (, p) = _amount(p, end, start);
            } while (role == LINK);
            return (i + 1, p);
        }
    }

    /// @dev The key kind in `flags` (bits 3-4, and bits 5-7 zero) must be what venue `venue`'s family has.
    function _keyKindIs(uint256 i, uint256 venue, uint256 flags) private view {
        uint256 family = _familyAt(i, venue);
        uint256 kind = family == FAMILY_V3 ? KEY_FEE : family == FAMILY_V4 ? KEY_V4 : 0;
        if (flags >> 3 != kind) revert InvalidStep(i);
    }

    /// @dev The pool key fields at `p` that the flags' key kind says follow; zero where there are none.
    function _key(Leg memory step, uint256 p, uint256 flags) private pure returns (uint256) {
        // An offset within calldata: no sum here can overflow.
        unchecked {
            uint256 kind = flags >> 3;
            (step.fee, step.tickSpacing, step.hooks) = (0, 0, address(0));
            if (kind == 0) return p;
            uint256 word;
            assembly ("memory-safe") {
                word := calldataload(p)
            }
            step.fee = uint24(word >> 232);
            if (kind == KEY_FEE) return p + 3;
            step.tickSpacing = int24(uint24(word >> 208));
            step.hooks = _address(p + 6);
            return p + 26;
        }
    }

    /// @dev The rest of a step's fields into `step`, the caller's (already allocated) leg, whose tokens are
    /// set: a step swaps two distinct tokens, neither the zero address.
    function _fill(Leg memory step, uint256 index, uint256 flags, address recipient) private view {
        (address tokenIn, address tokenOut) = (step.tokenIn, step.tokenOut);
        if (tokenIn == tokenOut || tokenIn == address(0) || tokenOut == address(0)) revert InvalidStep(index);
        step.index = index;
        step.to = flags & TO_ROUTER != 0 ? address(this) : recipient;
        step.recipient = recipient;
        step.fromRouter = flags & FROM_ROUTER != 0;
        step.exactOut = flags & EXACT_OUT != 0;
    }

    function _address(uint256 p) private pure returns (address account) {
        assembly ("memory-safe") {
            account := shr(96, calldataload(p))
        }
    }

    /// @dev An amount at `p`: a length byte (at most 32) and that many big-endian bytes, the first non-zero,
    /// all before `end`; else `MalformedPlan` at the length byte's offset from `start`.
    function _amount(uint256 p, uint256 end, uint256 start) private pure returns (uint256 value, uint256 next) {
        bool malformed;
        assembly ("memory-safe") {
            let length := byte(0, calldataload(p))
            let word := calldataload(add(p, 1))
            next := add(add(p, 1), length)
            // A shift of 256 (length 0) gives 0; a length above 32 is refused below whatever this reads.
            value := shr(shl(3, sub(32, length)), word)
            // Too long, past the end, or a leading zero byte (the first byte of `word`) in a non-empty amount.
            malformed := or(or(gt(length, 32), gt(next, end)), and(iszero(byte(0, word)), iszero(iszero(length))))
        }
        if (malformed) revert MalformedPlan(p - start);
    }
}
