/**
 * A token as search answers it: identity, verification, on-chain evidence, venues and flags. Quote
 * answers reuse `Verification`, `TokenState` and `SafetyVerdict` for their `sell` and `buy` sides.
 */
import { Schema } from "effect"
import { Address, BlockNumber, Bps, DecimalString, IsoDateTime } from "./Primitives.js"

export const VerificationStatus = Schema.Literal("verified", "unverified")

export const Verification = Schema.Struct({
  status: VerificationStatus,
  source: Schema.String.annotations({ description: "the list that verified the token, or `index` when none did" }),
  trust: Schema.Number.annotations({ description: "rank of the source; lower is more trusted" }),
  sourceUrl: Schema.String.annotations({ description: "where the verification source can be read" }),
  note: Schema.NullOr(Schema.String),
  coinId: Schema.NullOr(Schema.String).annotations({ description: "id of the token at a price aggregator" }),
  checkedAt: IsoDateTime
}).annotations({ identifier: "Verification" })
export type Verification = typeof Verification.Type

export const DepthKind = Schema.Literal("measured", "lower_bound").annotations({
  description:
    "`measured`: every pool priced with its exact swap math; `lower_bound`: some liquidity could not be measured exactly (dynamic fee, delta-returning hook, unpriced pair token, bonding curve), so the true depth is at least this"
})

export const Evidence = Schema.Struct({
  firstWithTicker: Schema.Boolean.annotations({ description: "first token the index saw with this ticker" }),
  creatorLinked: Schema.Boolean.annotations({ description: "its creator also created a verified token" }),
  depth2PctUsd: DecimalString,
  depthKind: DepthKind,
  depthAgeSec: Schema.NonNegativeInt.annotations({ description: "how far the indexed block trails the chain head" }),
  volume24hUsd: DecimalString,
  traders24h: Schema.NonNegativeInt,
  ageHours: Schema.NullOr(Schema.Number),
  posterior: Schema.NullOr(Schema.Number)
}).annotations({ identifier: "Evidence" })

export const Origin = Schema.Struct({
  launchpad: Schema.NullOr(Schema.String).annotations({ description: "launchpad id when a launchpad created it" }),
  creator: Schema.NullOr(Address),
  createdBlock: Schema.NullOr(BlockNumber),
  createdAt: Schema.NullOr(IsoDateTime)
}).annotations({ identifier: "Origin" })

export const TokenState = Schema.Literal("pool_only", "bonding_curve", "graduated", "no_pool").annotations({
  description:
    "`pool_only`: trades only in pools; `bonding_curve`: on its launchpad curve; `graduated`: left the curve for a pool; `no_pool`: known but in no pool"
})
export type TokenState = typeof TokenState.Type

export const VenueEntry = Schema.Struct({
  venue: Schema.String.annotations({ description: "venue id from the venues listing" }),
  poolId: Schema.String.annotations({ description: "pool address, or the v4 pool id (bytes32)" }),
  pair: Schema.String.annotations({ description: "symbol of the other token of the pool" }),
  feeBps: Schema.NullOr(Schema.Number).annotations({ description: "pool fee; null when the fee is dynamic" }),
  hooks: Schema.NullOr(Address)
}).annotations({ identifier: "VenueEntry" })

export const RouteRef = Schema.Struct({
  venue: Schema.String,
  poolId: Schema.String,
  pair: Schema.String
}).annotations({ identifier: "RouteRef" })

export const Verdict = Schema.Literal(
  "ok",
  "pinned",
  "taxed",
  "size_limited",
  "illiquid",
  "cannot_sell",
  "inconclusive"
)

/** What the token's controllers could still do, measured in simulation (src/safety/powers/). */
export const OwnerFlag = Schema.Literal(
  "upgradeable",
  "owner_can_mint",
  "owner_can_move_balances",
  "owner_can_stop_sells",
  "owner_can_set_tax",
  "hook_can_change_fee",
  "liquidity_removable"
).annotations({
  description:
    "`owner_can_*`: a simulated call by a privileged address (owner, admin, deployer, an address the token keeps in storage) minted, moved a holder's tokens, made a holder's sell-back revert, capped or confiscatory, or raised its sell tax, where the same call by a stranger did not; `upgradeable`: an EIP-1967 implementation or beacon is set; `hook_can_change_fee`: a v4 pool on the route has a dynamic fee its hook sets; `liquidity_removable`: one address that is not a burn address can withdraw a share of a route's pool now. Each comes with its details in `powers`"
})
export type OwnerFlag = typeof OwnerFlag.Type

export const OwnerPower = Schema.Struct({
  flag: OwnerFlag,
  function: Schema.NullOr(Schema.String).annotations({
    description: "the function that showed the power: its selector, and the arguments it was called with"
  }),
  caller: Schema.NullOr(Address).annotations({
    description: "who holds the power (the caller, the proxy admin, the LP holder or position owner)"
  }),
  callerRole: Schema.NullOr(Schema.String).annotations({
    description: "how the caller was found: `owner()`, `deployer`, `address in storage slot 7`, …"
  }),
  seen: Schema.String.annotations({ description: "what the simulation (or the chain) showed, with figures" }),
  poolId: Schema.optional(Schema.String),
  shareBps: Schema.optional(Bps).annotations({
    description:
      "`liquidity_removable`: the holder's share of the pool (v2: of its LP tokens; v3/v4: of its active liquidity, in range at the current tick)"
  })
}).annotations({ identifier: "OwnerPower" })
export type OwnerPower = typeof OwnerPower.Type

export const SafetyVerdict = Schema.Struct({
  routeId: Schema.String,
  route: RouteRef,
  verdict: Verdict,
  canSell: Schema.Boolean,
  buyTaxBps: Schema.NullOr(Bps),
  sellTaxBps: Schema.NullOr(Bps),
  buyImpactBps: Schema.NullOr(Bps),
  roundTripLossBps: Schema.NullOr(Bps),
  scope: Schema.Struct({ block: BlockNumber, walletProfile: Schema.String }),
  maxBuyUsdc: Schema.optional(DecimalString),
  flags: Schema.optional(Schema.Array(OwnerFlag)).annotations({
    description:
      "powers over the token measured at `scope.block` (present when the token was simulated); they inform, the verdict stays the measured behaviour"
  }),
  powers: Schema.optional(Schema.Array(OwnerPower)).annotations({
    description: "each flag's evidence: the function, the caller and what the simulation saw"
  }),
  reason: Schema.optional(Schema.String).annotations({
    description:
      "why the verdict is `inconclusive` or `cannot_sell`, and any finding (such as a balanceOf that disagrees with the transfers)"
  })
}).annotations({ identifier: "SafetyVerdict" })
export type SafetyVerdict = typeof SafetyVerdict.Type

export const RouteSafety = Schema.Struct({
  routeId: Schema.String,
  route: RouteRef,
  verdict: Verdict,
  buyTaxBps: Schema.NullOr(Bps),
  sellTaxBps: Schema.NullOr(Bps),
  checkedBlock: BlockNumber
}).annotations({ identifier: "RouteSafety" })

export const TokenFlag = Schema.Union(
  Schema.Literal("buy_tax", "sell_tax", "hooked_pool", "impersonates_canonical", "shared_ticker"),
  OwnerFlag
)
export type TokenFlag = typeof TokenFlag.Type

export const MatchKind = Schema.Literal("address", "symbol", "name", "prefix").annotations({
  description:
    "`address`: the 0x address; `symbol`/`name`: exact, case-insensitive; `prefix`: start of the symbol, name or a word of the name"
})
export type MatchKind = typeof MatchKind.Type

export const Discovered = Schema.Literal("index", "token_list").annotations({
  description: "`index`: seen on chain by the indexer; `token_list`: only on the verification list so far"
})

export const TokenResult = Schema.Struct({
  address: Address,
  symbol: Schema.String,
  name: Schema.String,
  decimals: Schema.NonNegativeInt,
  match: MatchKind,
  verification: Verification,
  evidence: Evidence,
  discovered: Discovered,
  origin: Origin,
  state: TokenState,
  venues: Schema.Array(VenueEntry).annotations({ description: "its pools, deepest first (at most 20)" }),
  liquidityUsd: DecimalString,
  depth2PctUsd: DecimalString,
  volume24hUsd: DecimalString,
  holders: Schema.NullOr(Schema.NonNegativeInt).annotations({
    description: "addresses with a balance; null when the index did not see the token's first mint"
  }),
  safety: Schema.NullOr(SafetyVerdict).annotations({
    description:
      "the verdict of the token's best USDC route, as last measured (by the background scan or a quote) at or before the answer's block (`scope.block`); null when none has been measured yet"
  }),
  safetyByRoute: Schema.Array(RouteSafety).annotations({
    description: "every measured route, best first, each with the block it was checked at; empty when unmeasured"
  }),
  flags: Schema.Array(TokenFlag).annotations({
    description:
      "`buy_tax` / `sell_tax` only when `safety` measured a tax above 0 bp on that side; the power flags (`upgradeable`, `owner_can_*`, `hook_can_change_fee`, `liquidity_removable`) as `safety.flags` has them"
  })
}).annotations({ identifier: "TokenResult" })
export type TokenResult = typeof TokenResult.Type
