// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice The router's public surface: the plan encoding `swap` puts in a transaction's `data`, the one
/// event `receipt` searches, and the errors a failed plan reverts with. Kept apart from the implementation
/// so the encoding is defined once (src/execution/RouterPlan.ts mirrors it and a test holds them equal).
interface ITradeRouter {
    /// @notice The plan is `bytes`, read by offset (PlanRules.sol), every field at its own width and
    /// nothing padded (plan encoding 5). In order, sizes in bytes:
    /// `quoteTag` (32): keccak256 of the quote id, echoed in the event;
    /// `head` (1): `funding` in bits 0-1 (0 ERC-20 approval to the router, 1 Permit2 allowance, 2 native
    /// value, USDC sells only), `exactOut` in bit 2; bits 3-7 zero, else `InvalidPlan`;
    /// `deadline` (6): unix seconds;
    /// `sellToken`, `buyToken`, `recipient` (20 each);
    /// `amountIn`, `minAmountOut`: each an amount (below);
    /// the step count (1, at least 1), then each step:
    ///   `venue` (1): the index in the router's venue table (`venueAt`), the venue file's order;
    ///   `flags` (1): EXACT_OUT (1), FROM_ROUTER (2: the input is what the plan holds in the router, else
    ///   the taker pays), TO_ROUTER (4: the output does not go to the recipient: it stays in the router for
    ///   later steps, or a chain link's goes to the pool of the step above it), and in bits 3-4 the pool key's kind, which must be its venue family's (0 v2 and the
    ///   curve, 1 v3: a fee, 2 v4: fee, tick spacing and hooks); bits 5-7 zero, else `InvalidStep`;
    ///   the pool (20): the v2 pair, the v3 pool, the PoolManager (v4) or the launchpad (curve);
    ///   `tokenIn` (20) only for a FROM_ROUTER step: a taker-paid step spends `sellToken`, by rule;
    ///   `tokenOut` (20) only for a TO_ROUTER step: a step paying the recipient makes `buyToken`, by rule;
    ///   `fee` (3) for key kinds 1 and 2; `tickSpacing` (3, two's complement) and `hooks` (20) for kind 2;
    ///   `amount` and `limit`: amounts.
    /// An amount is a length byte (0-32) and that many big-endian bytes, the first non-zero (0 is the
    /// length 0 alone), so every value has one encoding; `WHOLE_BALANCE` is 32 bytes of 0xff. The plan
    /// ends exactly after its last step. A read past the end, a length above 32, a leading zero byte or
    /// bytes after the last step revert `MalformedPlan(offset)`, so every plan has exactly one encoding.
    /// `amountIn`: exact-in: the taker spends exactly this much sellToken (taken from it, less any the plan
    /// hands back); exact-out: at most this much. `minAmountOut`: the least the recipient's balance of
    /// buyToken must rise. A step's `amount`: exact-in from the taker: base units; exact-in from the
    /// router: share of what the plan holds of tokenIn, 1e18 = all of it; exact-out: the exact output of
    /// this step. An exact-out step FROM_ROUTER heads a chain: the steps after it (flags
    /// EXACT_OUT|FROM_ROUTER|TO_ROUTER, the last EXACT_OUT|TO_ROUTER paid by the taker, `amount` 0) each
    /// make exactly the input of the one before. `limit`: exact-in: the least output of this step;
    /// exact-out: the most input.

    /// @notice Permit2's AllowanceTransfer.PermitSingle, field for field.
    struct PermitDetails {
        address token;
        uint160 amount;
        uint48 expiration;
        uint48 nonce;
    }

    struct PermitSingle {
        PermitDetails details;
        address spender;
        uint256 sigDeadline;
    }

    /// @notice One per execution, only what a caller cannot know from its own records. `quoteTag` and the
    /// taker (`msg.sender`) are the topics a fill is found by, topics 0 and 1: the event is anonymous (no
    /// signature topic, 375 gas less), which is unambiguous because it is the only event the router emits, and
    /// a log's address tells the router's from any other contract's. `amounts` is two fields in one word
    /// (one data word less, 256 gas): bits 128-255 `amountIn`, the sell token the taker spent (taken from
    /// its funds, less what the plan handed back to it), bits 0-127 `amountOut`, the rise of the
    /// recipient's buyToken balance; a plan where either exceeds 2^128 - 1 base units reverts
    /// `AmountTooLarge`. `planHash`: keccak256 of the plan's bytes after its deadline (the tokens, the
    /// recipient, the amounts and the steps, exactly as sent; their one encoding makes the hash the plan's).
    event PlanExecuted(bytes32 indexed quoteTag, address indexed taker, uint256 amounts, bytes32 planHash) anonymous;

    error Reentrancy();
    error DeadlineExpired(uint256 deadline, uint256 timestamp);
    error InvalidRecipient(address recipient);
    error RecipientIsPool(address pool);
    error EmptyPlan();
    error InvalidPlan();
    error MalformedPlan(uint256 offset);
    error InvalidStep(uint256 index);
    error UnknownVenue(uint256 index, uint8 venue);
    error InvalidVenueTable(uint256 index);
    error BadPairFee(uint256 index, uint256 fee);
    error ForgedPool(uint256 index, address pool, address expected);
    error ShareTooLarge(uint256 index);
    error StepOutputTooLow(uint256 index, uint256 amountOut, uint256 limit);
    error StepInputTooHigh(uint256 index, uint256 amountIn, uint256 limit);
    error PartialFill(uint256 index, uint256 amountOut, uint256 wanted);
    error PairInputShort(uint256 index, uint256 received, uint256 needed);
    error BadDelta(uint256 index);
    error InputAboveMaximum(uint256 amount, uint256 remaining);
    error InputNotSpent(uint256 paid, uint256 amountIn);
    error InsufficientOutput(uint256 amountOut, uint256 minAmountOut);
    error UnexpectedValue(uint256 value);
    error NativeFundingUnavailable();
    error UnknownFunding(uint8 funding);
    error PermitMismatch();
    error UnexpectedCallback(address caller);
    error AmountTooLarge(uint256 amount);

    function execute(bytes calldata plan) external payable returns (uint256 amountIn, uint256 amountOut);

    function executeWithPermit(bytes calldata plan, PermitSingle calldata permit, bytes calldata signature)
        external
        returns (uint256 amountIn, uint256 amountOut);
}
