/**
 * What each paid operation costs, in USDC base units (6 decimals), read from config with the spec's
 * table as defaults. `swap` is priced by the order's size in US dollars, measured in micro-dollars
 * (the same 6-decimal scale as USDC), from the stored quote before the swap runs:
 *
 * - under $1,000 (size < 1,000.000000): `PRICE_SWAP_SMALL`, 0.01 USDC;
 * - $1,000 to $10,000, both ends included: `PRICE_SWAP_MEDIUM`, 0.05 USDC;
 * - over $10,000: 0.05 USDC plus `PRICE_SWAP_LARGE_PPM` (50 ppm = 0.5 bp) of the part above $10,000,
 *   rounded down to the base unit, capped at `PRICE_SWAP_CAP` (5 USDC, reached at $109,000).
 */
import { Config, Schema } from "effect"

export interface PriceTable {
  readonly search: bigint
  readonly quote: bigint
  readonly swapSmall: bigint
  readonly swapMedium: bigint
  /** Parts per million of the order's size above `swapLargeAboveUsd`, added to `swapMedium`. */
  readonly swapLargePpm: bigint
  readonly swapCap: bigint
  /** Tier boundaries in micro-dollars. */
  readonly swapMediumFromUsd: bigint
  readonly swapLargeAboveUsd: bigint
}

const MICRO = 1_000_000n

export const defaultPrices: PriceTable = {
  search: 5_000n,
  quote: 10_000n,
  swapSmall: 10_000n,
  swapMedium: 50_000n,
  swapLargePpm: 50n,
  swapCap: 5_000_000n,
  swapMediumFromUsd: 1_000n * MICRO,
  swapLargeAboveUsd: 10_000n * MICRO
}

const amount = (name: string, fallback: bigint) =>
  Schema.Config(name, Schema.BigInt.pipe(Schema.nonNegativeBigInt())).pipe(Config.withDefault(fallback))

export const priceTableConfig: Config.Config<PriceTable> = Config.all({
  search: amount("PRICE_SEARCH", defaultPrices.search),
  quote: amount("PRICE_QUOTE", defaultPrices.quote),
  swapSmall: amount("PRICE_SWAP_SMALL", defaultPrices.swapSmall),
  swapMedium: amount("PRICE_SWAP_MEDIUM", defaultPrices.swapMedium),
  swapLargePpm: amount("PRICE_SWAP_LARGE_PPM", defaultPrices.swapLargePpm),
  swapCap: amount("PRICE_SWAP_CAP", defaultPrices.swapCap),
  swapMediumFromUsd: Config.succeed(defaultPrices.swapMediumFromUsd),
  swapLargeAboveUsd: Config.succeed(defaultPrices.swapLargeAboveUsd)
})

/** The price of a `swap` whose order is worth `orderUsd` micro-dollars. */
export const swapPrice = (table: PriceTable, orderUsd: bigint): bigint => {
  if (orderUsd < table.swapMediumFromUsd) return table.swapSmall
  if (orderUsd <= table.swapLargeAboveUsd) return table.swapMedium
  const variable = ((orderUsd - table.swapLargeAboveUsd) * table.swapLargePpm) / MICRO
  const price = table.swapMedium + variable
  return price < table.swapCap ? price : table.swapCap
}
