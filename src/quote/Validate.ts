/**
 * The checks of a quote request that its schema cannot make: addresses rather than tickers, two
 * different assets (native and ERC-20 USDC being one), venue ids that exist, and an amount that is a
 * positive decimal with no more places than the token has, within uint256 in base units. Each answers
 * with the spec's code.
 */
import { Effect, Option } from "effect"
import { maxUint256 } from "viem"
import type { Venue } from "../../layers/Venues.js"
import { type Address, addressOption, type Hex } from "../../schema/Chain.js"
import { InvalidAmount, invalidField, TickerNotAllowed, UnknownVenue, UnsupportedPair } from "../../schema/Errors.js"
import { NATIVE } from "../indexer/Sources.js"

/** The placeholder many wallets and aggregators use for a chain's native coin. */
const NATIVE_PLACEHOLDER: string = "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"

/** A side's token as lower-case hex; native USDC (zero address or 0xEeee…) becomes ERC-20 USDC. */
export const tokenOf = (field: "sell" | "buy", value: string, usdc: Address) => {
  const address = addressOption(value)
  if (Option.isNone(address)) {
    if (value.startsWith("0x")) {
      return Effect.fail(
        invalidField([field], {
          expected: "0x-prefixed 20-byte hex address",
          message: `\`${field}\` is not a 20-byte 0x address`
        })
      )
    }
    return Effect.fail(
      new TickerNotAllowed({
        message: `\`${field}\` must be a token address, not a ticker ("${value.slice(0, 32)}")`,
        hint: "resolve the ticker with `search` and quote its address"
      })
    )
  }
  const token = address.value
  return Effect.succeed(token === NATIVE || token === NATIVE_PLACEHOLDER ? usdc : token)
}

export const distinctPair = (sell: Hex, buy: Hex) =>
  sell === buy
    ? Effect.fail(
      new UnsupportedPair({
        message: "`sell` and `buy` are the same asset",
        hint: "native and ERC-20 USDC are one asset; quote two different tokens"
      })
    )
    : Effect.void

/** Every id of `venues` and `excludeVenues` must be in the venue listing. */
export const knownVenues = (
  listing: ReadonlyArray<Venue>,
  named: ReadonlyArray<string>
) => {
  const unknown = named.filter((id) => !listing.some((venue) => venue.id === id))
  return unknown.length === 0 ? Effect.void : Effect.fail(
    new UnknownVenue({
      message: `unknown venue id${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}`,
      hint: `venue ids are listed by GET /trade/v1/venues: ${listing.map((venue) => venue.id).join(", ")}`
    })
  )
}

const DECIMAL = /^(0|[1-9][0-9]*)(\.([0-9]+))?$/

/** `"12.5"` with 6 decimals → 12500000n; refuses other forms, more places than `decimals`, and zero. */
export const rawAmount = (amount: string, decimals: number, symbol: string) => {
  const match = DECIMAL.exec(amount)
  if (match === null) {
    return Effect.fail(
      new InvalidAmount({
        message: `amount "${amount.slice(0, 40)}" is not a decimal number`,
        hint: "send a decimal string in whole-token units such as \"12.5\" (no exponent, sign or separators)"
      })
    )
  }
  const fraction = match[3] ?? ""
  if (fraction.length > decimals) {
    return Effect.fail(
      new InvalidAmount({
        message: `amount "${amount}" has ${fraction.length} decimal places; ${symbol} has ${decimals}`,
        hint: `round the amount to at most ${decimals} decimal places`
      })
    )
  }
  const raw = BigInt(match[1]!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, "0") || "0")
  if (raw === 0n) {
    return Effect.fail(new InvalidAmount({ message: "amount must be greater than zero" }))
  }
  // No token balance, pool reserve or transfer can hold more: such an amount is a mistake, not a trade.
  if (raw > maxUint256) {
    return Effect.fail(
      new InvalidAmount({
        message: `amount "${amount.slice(0, 40)}${
          amount.length > 40 ? "…" : ""
        }" is beyond what uint256 holds in ${symbol} base units`,
        hint: "send the amount in whole-token units, at most 2^256 - 1 base units"
      })
    )
  }
  return Effect.succeed(raw)
}
