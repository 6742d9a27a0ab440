// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ITradeRouter} from "./ITradeRouter.sol";
import {IPermit2Allowance} from "./Externals.sol";
import {Holdings} from "./Holdings.sol";
import {TokenCalls} from "./TokenCalls.sol";

/// @notice What every venue of the router shares: the shape of its venue table (the table itself, set
/// once at construction and never changed, is in VenueTable.sol), the state of the one execution in
/// progress (transient, gone when the transaction ends), and the single place where the taker's funds
/// move (`_pay`), which only ever takes from the caller of `execute`.
abstract contract RouterBase is ITradeRouter {
    /// @notice `VenueConfig.family`: the code that executes a venue's pools.
    uint8 public constant FAMILY_V2 = 0;
    uint8 public constant FAMILY_V3 = 1;
    uint8 public constant FAMILY_V4 = 2;
    uint8 public constant FAMILY_LAUNCHPAD = 3;

    /// @notice The plan encoding and `PlanExecuted` this router speaks: 5 is the plan as `bytes`, every field
    /// at its own width and read by offset (ITradeRouter.sol has the layout), with the anonymous event and
    /// both amounts in one word. 4 took the plan as ABI words (packed `Step` and `Plan.head` words) with the
    /// same event; 3 emitted the amounts as two words; 2 emitted the event with its signature as topic 0.
    /// Routers of the first encoding (ABI words, the eight-field event) have no such getter; the service
    /// refuses to start with any router whose answer is not its own (src/execution/RouterCheck.ts), since
    /// it would send calldata that router cannot read.
    uint8 public constant PLAN_ENCODING = 5;

    /// @dev A fixed v2 fee is in hundredths of a basis point (Uniswap v3's unit: 3000 = 0.3 %).
    uint256 internal constant FEE_PIPS = 1e6;

    uint8 internal constant EXACT_OUT = 1;
    uint8 internal constant FROM_ROUTER = 2;
    uint8 internal constant TO_ROUTER = 4;

    uint8 internal constant FUNDING_APPROVAL = 0;
    uint8 internal constant FUNDING_PERMIT2 = 1;
    uint8 internal constant FUNDING_NATIVE = 2;

    /// @notice How native value becomes the sell token: not at all, through the devnet USDC's `deposit`
    /// (1 unit per 1e12 wei), or on a chain where native value and ERC-20 USDC are one balance (Arc).
    uint8 public constant NATIVE_NONE = 0;
    uint8 public constant NATIVE_DEPOSIT = 1;
    uint8 public constant NATIVE_SAME_BALANCE = 2;
    uint256 internal constant NATIVE_PER_USDC_UNIT = 1e12;

    /// @dev 1e18 = all of what the router holds (exact-in steps funded by earlier steps).
    uint256 internal constant SHARE_ONE = 1e18;

    /// @dev As an exact-in plan's `amountIn` (approval or Permit2 funding): all of the caller's balance of
    /// the sell token, read when the plan starts; as a taker-funded exact-in step's `amount`: the plan's
    /// resolved `amountIn`. Lets a wallet sell back exactly what an earlier transaction delivered (the
    /// safety round trip) without knowing it in advance; it still only ever moves `msg.sender`'s tokens.
    uint256 internal constant WHOLE_BALANCE = type(uint256).max;

    /// @dev TickMath's bounds, one step inside: "no price limit" for v3 and v4 swaps.
    uint160 internal constant MIN_SQRT_PRICE_LIMIT = 4295128740;
    uint160 internal constant MAX_SQRT_PRICE_LIMIT = 1461446703485210103287273052203988822378723970341;

    /// @notice One venue the router executes on (a fork of a known family with its own contracts). Its
    /// index in the table is a step's `venue` byte.
    /// `registry`: the v2/v3 factory, the v4 PoolManager or the launchpad. `deployer`, `initCodeHash`
    /// (v2, v3): the CREATE2 deployer of the venue's pools (the factory, or a v3 fork's pool deployer) and
    /// its pool init code hash; every pool a step names must be the address they give for its tokens.
    /// v2 fee rule: `feeGetter` zero: the fixed `fee` (hundredths of a bp) for every pair; otherwise each
    /// pair's fee is what that view function of the pair returns, out of `feeDenominator`.
    /// `swapCallback` (v3 only): the selector a fork's pools call back under when it is not
    /// `uniswapV3SwapCallback` (PancakeSwap v3: `pancakeV3SwapCallback`), same arguments; zero otherwise.
    /// Kept in code, not storage (VenueTable.sol).
    struct VenueConfig {
        uint8 family;
        address registry;
        address deployer;
        uint24 fee;
        bytes4 feeGetter;
        uint32 feeDenominator;
        bytes32 initCodeHash;
        bytes4 swapCallback;
    }

    /// @dev A table entry is kept as three words (VenueTable.sol writes them): `head` (family in bits
    /// 248-255, registry 88-247, fee 64-87, fee getter 32-63, fee denominator 0-31), `deployer` (the
    /// deployer in bits 0-159, the v3 callback name in 160-191) and the init code hash. A step reads its
    /// entry's words on the stack and takes what its family uses, without building a `VenueConfig`.
    function _familyOf(uint256 head) internal pure returns (uint8) {
        return uint8(head >> 248);
    }

    function _registryOf(uint256 head) internal pure returns (address) {
        return address(uint160(head >> 88));
    }

    function _feeOf(uint256 head) internal pure returns (uint24) {
        return uint24(head >> 64);
    }

    function _feeGetterOf(uint256 head) internal pure returns (bytes4) {
        return bytes4(uint32(head >> 32));
    }

    function _feeDenominatorOf(uint256 head) internal pure returns (uint32) {
        return uint32(head);
    }

    function _deployerOf(uint256 deployerWord) internal pure returns (address) {
        return address(uint160(deployerWord));
    }

    function _callbackNameOf(uint256 deployerWord) internal pure returns (bytes4) {
        return bytes4(uint32(deployerWord >> 160));
    }

    struct Config {
        address permit2;
        address usdc;
        uint8 nativeMode;
        VenueConfig[] venues;
    }

    address public immutable permit2;
    address public immutable usdc;
    uint8 public immutable nativeMode;

    /// @dev The execution in progress: its caller (the taker, who alone pays) in the low 160 bits and the
    /// funding kind above them, in one slot so one read serves every payment. Non-zero means "locked".
    uint256 internal transient tExecution;
    /// @dev Sell token the taker's funds may still pay in the execution in progress: the plan's resolved
    /// `amountIn` less every payment so far. Every execution sets it when it starts, and it is read only
    /// inside one, so it is not cleared at the end.
    uint256 internal transient tRemaining;
    /// @dev The one contract allowed to call back next (a v3 pool, the PoolManager); cleared on use.
    address internal transient tCallback;
    /// @dev While a v3 fork's pool is being swapped with: the other name it calls back under (zero for
    /// Uniswap's own name). Routes that name, from `tCallback` only, to the same payment code.
    bytes4 internal transient tV3CallbackName;

    /// @notice One step, validated and with its amount resolved.
    struct Leg {
        uint256 index;
        uint8 venue;
        /// @dev the step's pool fields, as the plan gives them (zero where its family has none)
        address pool;
        uint24 fee;
        int24 tickSpacing;
        address hooks;
        address tokenIn;
        address tokenOut;
        /// @dev where the pool sends the output: the recipient or this router
        address to;
        address recipient;
        /// @dev exact-in: the input is a share of what the plan holds; exact-out: the input is made by
        /// the chain's next link, run for exactly what this step owes
        bool fromRouter;
        bool exactOut;
        /// @dev exact-in: input in base units; exact-out: the wanted output
        uint256 amount;
        /// @dev exact-in: least output; exact-out: most input
        uint256 limit;
        /// @dev the plan's sell token: the input of a chain's last link, which the plan does not repeat
        address sellToken;
        /// @dev the chain links still below this step, as the plan encodes them: their first byte and
        /// their end in the calldata of the frame holding this leg (the plan's, or a pool callback's
        /// data, which carries them on); zero when nothing runs below it
        uint256 links;
        uint256 linksEnd;
    }

    constructor(Config memory config) {
        if (config.nativeMode > NATIVE_SAME_BALANCE) revert InvalidPlan();
        permit2 = config.permit2;
        usdc = config.usdc;
        nativeMode = config.nativeMode;
    }

    /// @notice Moves `amount` of `token` to `to`: from what the plan holds in the router (what earlier
    /// steps produced, or the native deposit), or from the taker's funds, which is always the caller of
    /// `execute` (`tExecution`) and never an address taken from calldata, and never more in total than the
    /// plan's `amountIn`.
    function _pay(address token, address to, uint256 amount, bool fromRouter) internal {
        if (amount == 0) return;
        if (fromRouter) {
            Holdings.debit(token, amount);
            TokenCalls.transfer(token, to, amount);
            return;
        }
        uint256 remaining = tRemaining;
        if (amount > remaining) revert InputAboveMaximum(amount, remaining);
        unchecked {
            tRemaining = remaining - amount;
        }
        uint256 execution = tExecution;
        address payer = address(uint160(execution));
        uint256 funding = execution >> 160;
        if (funding == FUNDING_APPROVAL) {
            TokenCalls.transferFrom(token, payer, to, amount);
        } else if (funding == FUNDING_PERMIT2) {
            if (amount > type(uint160).max) revert AmountTooLarge(amount);
            IPermit2Allowance(permit2).transferFrom(payer, to, uint160(amount), token);
        } else {
            // Native funding: the taker's deposit, held for this plan since it started.
            Holdings.debit(token, amount);
            if (to != address(this)) TokenCalls.transfer(token, to, amount);
        }
    }

    /// @notice Pays what a step owes to `to`, the pool it swaps with (a v2 pair before its swap, a v3 pool in
    /// its callback): for a chained exact-out step, by its next link run for exactly `amount` of the step's
    /// input (`_deliver`), else from the taker or the plan's holding.
    function _payLeg(Leg memory leg, address to, uint256 amount) internal {
        if (leg.links != 0) return _deliver(leg, to, amount);
        _pay(leg.tokenIn, to, amount, leg.fromRouter);
    }

    /// @notice Makes `amount` of `leg.tokenIn` held by the plan when `leg` is a chained exact-out step.
    function _provide(Leg memory leg, uint256 amount) internal virtual;

    /// @notice Has chained exact-out step `leg`'s next link pay `amount` of `leg.tokenIn` to `to`.
    function _deliver(Leg memory leg, address to, uint256 amount) internal virtual;

    /// @notice The family of table entry `venue` (`UnknownVenue(index, venue)` past the table), for reading
    /// step `index`: its pool key's fields depend on it.
    function _familyAt(uint256 index, uint256 venue) internal view virtual returns (uint256);

    /// @notice Whether `name` is the selector of one of the router's own external functions.
    function _isOwnSelector(bytes4 name) internal pure virtual returns (bool);

    /// @dev `given` must be the pool the registry would have created; the recipient may not be it
    /// (output sent to a pool is donated to its liquidity providers or skimmed by anyone).
    function _checkPool(Leg memory leg, address given, address expected) internal pure {
        if (given != expected) revert ForgedPool(leg.index, given, expected);
        if (expected == leg.recipient) revert RecipientIsPool(expected);
    }
}
