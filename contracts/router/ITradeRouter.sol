// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice The router's public surface: the plan encoding `swap` puts in a transaction's `data`, the one
/// event `receipt` searches, and the errors a failed plan reverts with. Kept apart from the implementation
/// so the encoding is defined once (src/execution/RouterPlan.ts mirrors it and a test holds them equal).
interface ITradeRouter {
    /// @notice One pool swap. Its small fields share the pool's word (`pool`, below), where an address
    /// leaves 96 bits empty, so a step costs 6 calldata words, not 10; the router unpacks them itself.
    /// `venue`: the index in the router's venue table (`venueAt`), which is the
    /// venue file's order; the venue's family says how the step executes: a v2-family pair, a v3-family
    /// pool, a v4 pool (through the venue's PoolManager) or a launchpad bonding curve. `flags`: EXACT_OUT (1), FROM_ROUTER (2: input comes from what earlier
    /// steps left in the router, else from the taker), TO_ROUTER (4: output stays in the router for later
    /// steps, else it goes to the recipient).
    /// The pool address: the v2 pair, the v3 pool, the PoolManager (v4) or the launchpad (curve); v2/v3 pools must be
    /// the CREATE2 address of the venue's deployer and init code hash for (tokenIn, tokenOut, fee).
    /// `fee`: v3 fee tier or v4 key fee (0x800000 for dynamic-fee pools); `tickSpacing`, `hooks`: v4 key.
    /// `pool`: the pool address in bits 0-159, `venue` in 160-167, `flags` in 168-175, `fee` in 176-199,
    /// `tickSpacing` (two's complement) in 200-223; bits 224-255 are zero, else the step is `InvalidStep`.
    /// `amount`: exact-in from the taker: base units; exact-in from the router: share of what the plan
    /// holds of tokenIn, 1e18 = all of it; exact-out: the exact output of this step. An exact-out step
    /// FROM_ROUTER heads a chain: the steps after it (flags EXACT_OUT|FROM_ROUTER|TO_ROUTER, the last
    /// EXACT_OUT|TO_ROUTER paid by the taker, `amount` 0) each make exactly the input of the one before.
    /// `limit`: exact-in: the least output of this step; exact-out: the most input.
    struct Step {
        uint256 pool;
        address tokenIn;
        address tokenOut;
        address hooks;
        uint256 amount;
        uint256 limit;
    }

    /// @notice A whole trade. `head` packs three small fields in one word: `funding` in bits 0-7 (0 ERC-20
    /// approval to the router, 1 Permit2 allowance, 2 native value, USDC sells only), `exactOut` in 8-15
    /// (0 or 1), `deadline` (unix seconds) in 16-63; bits 64-255 are zero, else the plan is `InvalidPlan`.
    /// `amountIn`: exact-in: the taker spends exactly this much sellToken (taken
    /// from it, less any the plan hands back); exact-out: at most this much. `minAmountOut`: the least the recipient's balance of buyToken must
    /// rise. `quoteTag`: keccak256 of the quote id, echoed in the event.
    struct Plan {
        bytes32 quoteTag;
        address sellToken;
        address buyToken;
        address recipient;
        uint256 head;
        uint256 amountIn;
        uint256 minAmountOut;
        Step[] steps;
    }

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
    /// `AmountTooLarge`. `planHash`: keccak256 of abi.encode(sellToken, buyToken, recipient, exactOut,
    /// amountIn, minAmountOut, steps) as the plan gave them, which binds the tokens and the recipient.
    event PlanExecuted(bytes32 indexed quoteTag, address indexed taker, uint256 amounts, bytes32 planHash) anonymous;

    error Reentrancy();
    error DeadlineExpired(uint256 deadline, uint256 timestamp);
    error InvalidRecipient(address recipient);
    error RecipientIsPool(address pool);
    error EmptyPlan();
    error InvalidPlan();
    error InvalidStep(uint256 index);
    error UnknownVenue(uint256 index, uint8 venue);
    error InvalidVenueTable(uint256 index);
    error BadPairFee(uint256 index, uint256 fee);
    error ForgedPool(uint256 index, address pool, address expected);
    error PayerTokenMismatch(uint256 index);
    error OutputTokenMismatch(uint256 index);
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

    function execute(Plan calldata plan) external payable returns (uint256 amountIn, uint256 amountOut);

    function executeWithPermit(Plan calldata plan, PermitSingle calldata permit, bytes calldata signature)
        external
        returns (uint256 amountIn, uint256 amountOut);
}
