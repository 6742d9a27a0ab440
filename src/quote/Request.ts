/**
 * A quote request resolved into what pricing needs: both sides' tokens as the index knows them and
 * the amount in base units. Everything here is read from the request and the in-memory index, so it
 * runs before any payment is asked for (the operation table's `check`) and again when the quote runs:
 * a ticker, an unknown venue or token, or an amount that is not a decimal, has too many places, is zero
 * or is beyond uint256 in base units is answered unpaid, with the spec's code.
 */
import { Effect, HashMap, Option } from "effect"
import { Deployment, usdcOf } from "../../layers/Deployment.js"
import { Venues } from "../../layers/Venues.js"
import type { Address, Hex } from "../../schema/Chain.js"
import { TokenNotFound } from "../../schema/Errors.js"
import type { QuoteRequest } from "../../schema/QuoteRequest.js"
import { stateOf } from "../search/Assess.js"
import { TokenSearch } from "../search/TokenSearch.js"
import type { SearchView } from "../search/View.js"
import { distinctPair, knownVenues, rawAmount, tokenOf } from "./Validate.js"

/** A side of the trade as the index and the verification list know it. */
export const sideOf = (view: SearchView, address: Hex) => {
  const facts = Option.getOrUndefined(HashMap.get(view.snapshot.state.tokens, address))
  const listed = view.book.listed.get(address)
  if (facts === undefined && listed === undefined) return undefined
  const useChain = facts !== undefined && (facts.metadataOk || listed === undefined)
  const verification = listed?.verification ?? view.book.unverified
  return {
    address,
    symbol: useChain ? facts.symbol : listed?.symbol ?? "",
    decimals: useChain ? facts.decimals : listed?.decimals ?? 18,
    verification: { status: verification.status, source: verification.source, trust: verification.trust },
    state: stateOf(facts),
    discovered: facts === undefined ? "token_list" as const : "index" as const
  }
}

/** One side of the trade, as `sideOf` finds it. */
export type TradeSide = NonNullable<ReturnType<typeof sideOf>>

export interface ResolvedRequest {
  readonly sellToken: Address
  readonly buyToken: Address
  readonly sell: TradeSide
  readonly buy: TradeSide
  /** Input (exactIn) or output (exactOut), in base units. */
  readonly amount: bigint
  readonly view: SearchView
}

/** `request` resolved against `view`: a read of the view and the request alone. */
// Untraced: it runs inside the quote's first step's span, or the operation's before payment.
export const resolveQuoteRequest = Effect.fnUntraced(
  function*(request: QuoteRequest, view: SearchView) {
    const usdc = usdcOf(yield* Deployment)
    const venues = yield* Venues
    const sellToken = yield* tokenOf("sell", request.sell, usdc)
    const buyToken = yield* tokenOf("buy", request.buy, usdc)
    yield* distinctPair(sellToken, buyToken)
    yield* knownVenues(venues.all, [...(request.venues ?? []), ...(request.excludeVenues ?? [])])
    const sell = sideOf(view, sellToken)
    const buy = sideOf(view, buyToken)
    if (sell === undefined || buy === undefined) {
      return yield* new TokenNotFound({
        message: `no token is known at ${sell === undefined ? request.sell : request.buy}`,
        hint: "check the address with `search`; a token is known once the index has seen it on chain"
      })
    }
    const amount = yield* request.side === "exactIn"
      ? rawAmount(request.amount, sell.decimals, sell.symbol)
      : rawAmount(request.amount, buy.decimals, buy.symbol)
    const resolved: ResolvedRequest = { sellToken, buyToken, sell, buy, amount, view }
    return resolved
  }
)

/** The operation table's pre-payment check of a quote request. */
export const checkQuoteRequest = (request: QuoteRequest) =>
  Effect.flatMap(
    TokenSearch,
    (tokens) => Effect.asVoid(Effect.flatMap(tokens.view, (view) => resolveQuoteRequest(request, view)))
  )
