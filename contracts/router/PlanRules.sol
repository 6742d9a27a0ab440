// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Holdings} from "./Holdings.sol";
import {ITradeRouter} from "./ITradeRouter.sol";
import {RouterBase} from "./RouterBase.sol";

/// @notice The checks a plan passes before anything moves, each step turned into the leg it executes,
/// and the hash that binds a fill to its plan. Pure rules, apart from reading what the plan holds.
library PlanRules {
    uint8 internal constant EXACT_OUT = 1;
    uint8 internal constant FROM_ROUTER = 2;
    uint8 internal constant TO_ROUTER = 4;
    uint8 internal constant LINK = EXACT_OUT | FROM_ROUTER | TO_ROUTER;
    uint8 internal constant LAST_LINK = EXACT_OUT | TO_ROUTER;
    uint256 internal constant SHARE_ONE = 1e18;
    uint256 internal constant WHOLE_BALANCE = type(uint256).max;

    /// @notice A plan's own fields, read from calldata once: every read of a calldata struct's field is
    /// a call that re-checks it, and `_run` needs most of them several times. `head` is kept whole for
    /// `check`; `funding`, `exactOut` and `deadline` are its fields (ITradeRouter.sol has the layout).
    struct Fields {
        bytes32 quoteTag;
        address sellToken;
        address buyToken;
        address recipient;
        uint256 head;
        uint256 amountIn;
        uint256 minAmountOut;
    }

    function read(ITradeRouter.Plan calldata plan) internal pure returns (Fields memory f) {
        f.quoteTag = plan.quoteTag;
        f.sellToken = plan.sellToken;
        f.buyToken = plan.buyToken;
        f.recipient = plan.recipient;
        f.head = plan.head;
        f.amountIn = plan.amountIn;
        f.minAmountOut = plan.minAmountOut;
    }

    /// @notice `Plan.head`'s fields, each cut to its width; `check` refuses a head with bits above them.
    function funding(uint256 head) internal pure returns (uint8) {
        return uint8(head);
    }

    function exactOut(uint256 head) internal pure returns (bool) {
        return uint8(head >> 8) != 0;
    }

    function deadline(uint256 head) internal pure returns (uint256) {
        return uint48(head >> 16);
    }

    /// @notice What `PlanExecuted.planHash` carries: the sell and buy token, the recipient, the amounts and
    /// every step, so the event need not repeat the tokens or the recipient. The quote tag, funding and
    /// deadline are left out: they are how and when a plan is sent, not what it trades (`swap/tx` changes
    /// the deadline of a plan `swap` built).
    /// It is `keccak256(abi.encode(sellToken, buyToken, recipient, exactOut, amountIn, minAmountOut,
    /// steps))`, built without abi.encode's copy: `Step` is all static fields, so the encoded `steps`
    /// (length, then 6 words per step, the pool word packed as it is in calldata) is exactly their
    /// calldata, copied as it is. The copy is clean because every step has already been read field by
    /// field, with Solidity's range checks and `_fill`'s check of the pool word's spare bits, as the
    /// plan's leg or chain link before this hash is taken (a dirty field reverts there).
    function planHash(Fields memory f, ITradeRouter.Step[] calldata steps) internal pure returns (bytes32 hash) {
        (address sellToken, address buyToken, address recipient) = (f.sellToken, f.buyToken, f.recipient);
        (bool isExactOut, uint256 amountIn, uint256 minAmountOut) = (exactOut(f.head), f.amountIn, f.minAmountOut);
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, sellToken)
            mstore(add(m, 0x20), buyToken)
            mstore(add(m, 0x40), recipient)
            mstore(add(m, 0x60), isExactOut)
            mstore(add(m, 0x80), amountIn)
            mstore(add(m, 0xa0), minAmountOut)
            mstore(add(m, 0xc0), 0xe0)
            mstore(add(m, 0xe0), steps.length)
            let size := mul(steps.length, 0xc0)
            calldatacopy(add(m, 0x100), steps.offset, size)
            hash := keccak256(m, add(0x100, size))
        }
    }

    /// @notice Refuses a plan whose recipient is zero, the router (`self`) or `permit2`, or that has no
    /// steps, or whose tokens are missing or equal, or whose `head` has bits beyond its fields or an
    /// `exactOut` other than 0 or 1 (so every plan has one encoding; `funding` is checked when it is used).
    function check(Fields memory f, uint256 stepCount, address self, address permit2) internal pure {
        if (f.head >> 64 != 0 || uint8(f.head >> 8) > 1) revert ITradeRouter.InvalidPlan();
        address recipient = f.recipient;
        if (recipient == address(0) || recipient == self || recipient == permit2) {
            revert ITradeRouter.InvalidRecipient(recipient);
        }
        if (stepCount == 0) revert ITradeRouter.EmptyPlan();
        if (f.sellToken == f.buyToken || f.sellToken == address(0) || f.buyToken == address(0)) {
            revert ITradeRouter.InvalidPlan();
        }
    }

    /// @notice Writes step `i` into `step` as a leg, every field of it, and returns the index of the next
    /// step the plan loop runs. The loop reuses one `Leg` for all its steps (a leg is done with when its
    /// `_exec` returns: callbacks get copies), so only the first costs an allocation. An exact-out step
    /// from the router heads a chain: the steps after it, each exact-out into the router and making the
    /// input of the one before, down to one the taker pays, run nested inside it, each for exactly what
    /// the step above owes, so every step keeps its own limit however the pools moved.
    /// @param maxIn the plan's resolved `amountIn`
    function leg(
        RouterBase.Leg memory step,
        ITradeRouter.Step[] calldata steps,
        uint256 i,
        Fields memory f,
        uint256 maxIn
    ) internal view returns (uint256 next) {
        ITradeRouter.Step calldata s = steps[i];
        // Field by field from calldata (each address read is checked clean), not copied to memory first.
        _fill(step, i, f.recipient, s.pool, s.tokenIn, s.tokenOut, s.hooks, s.amount, s.limit);
        if (!step.fromRouter && step.tokenIn != f.sellToken) revert ITradeRouter.PayerTokenMismatch(i);
        if (step.to != address(this) && step.tokenOut != f.buyToken) revert ITradeRouter.OutputTokenMismatch(i);
        next = i + 1;
        // `_fill` writes the step's own fields; the chain fields are the loop's, reset here for a reused leg.
        ITradeRouter.Step[] memory none;
        step.chain = none;
        step.link = 0;
        if (step.exactOut && step.fromRouter) {
            step.chain = _chain(steps, i, f.sellToken);
            next = i + step.chain.length;
        } else if (!step.fromRouter && !step.exactOut && step.amount == WHOLE_BALANCE) {
            step.amount = maxIn;
        } else if (step.fromRouter) {
            if (step.amount > SHARE_ONE) revert ITradeRouter.ShareTooLarge(i);
            step.amount = Holdings.amountOf(step.tokenIn) * step.amount / SHARE_ONE;
        }
        if (step.amount == 0) revert ITradeRouter.InvalidStep(i);
    }

    /// @notice The chain's next link below `above`, asked for exactly `amount` (what `above` owes).
    function link(RouterBase.Leg memory above, uint256 amount) internal view returns (RouterBase.Leg memory step) {
        uint256 position = above.link + 1;
        ITradeRouter.Step memory s = above.chain[position];
        _fill(step, above.index + 1, above.recipient, s.pool, s.tokenIn, s.tokenOut, s.hooks, s.amount, s.limit);
        step.amount = amount;
        step.chain = above.chain;
        step.link = position;
    }

    /// @dev Steps i.. of the chain headed by step i, checked link by link: each exact-out into the router
    /// with no amount of its own, making the token the step above spends; the last one paid by the taker.
    function _chain(ITradeRouter.Step[] calldata steps, uint256 i, address sellToken)
        private
        pure
        returns (ITradeRouter.Step[] memory chain)
    {
        uint256 end = i + 1;
        uint256 count = steps.length;
        while (end < count && _flags(steps[end].pool) == LINK) ++end;
        if (end == count || _flags(steps[end].pool) != LAST_LINK) revert ITradeRouter.InvalidStep(end);
        if (steps[end].tokenIn != sellToken) revert ITradeRouter.PayerTokenMismatch(end);
        chain = new ITradeRouter.Step[](end - i + 1);
        for (uint256 k; k < chain.length; ++k) {
            chain[k] = steps[i + k];
            if (k == 0) continue;
            if (chain[k].amount != 0 || chain[k].tokenOut != chain[k - 1].tokenIn) {
                revert ITradeRouter.InvalidStep(i + k);
            }
        }
    }

    /// @dev `Step.pool`'s flags byte (ITradeRouter.sol has the word's layout).
    function _flags(uint256 poolWord) private pure returns (uint8) {
        return uint8(poolWord >> 168);
    }

    /// @dev Writes a step's fields (`Step`'s, in order from `word`, its pool word) into `step`, the
    /// caller's (already allocated) return value, so that building a leg allocates one `Leg`, not two.
    /// Unpacks the pool word, refusing bits above its fields.
    function _fill(
        RouterBase.Leg memory step,
        uint256 index,
        address recipient,
        uint256 word,
        address tokenIn,
        address tokenOut,
        address hooks,
        uint256 amount,
        uint256 limit
    ) private view {
        uint8 flags = _flags(word);
        if (word >> 224 != 0 || flags > LINK) revert ITradeRouter.InvalidStep(index);
        if (tokenIn == tokenOut || tokenIn == address(0) || tokenOut == address(0)) {
            revert ITradeRouter.InvalidStep(index);
        }
        step.index = index;
        step.venue = uint8(word >> 160);
        step.pool = address(uint160(word));
        step.fee = uint24(word >> 176);
        step.tickSpacing = int24(uint24(word >> 200));
        step.hooks = hooks;
        step.tokenIn = tokenIn;
        step.tokenOut = tokenOut;
        step.to = flags & TO_ROUTER != 0 ? address(this) : recipient;
        step.recipient = recipient;
        step.fromRouter = flags & FROM_ROUTER != 0;
        step.exactOut = flags & EXACT_OUT != 0;
        step.amount = amount;
        step.limit = limit;
    }
}
