/**
 * The USDC → token path a safety benchmark checks a seeded token on: the best single path for a
 * $100 buy through the token list's hubs, or, for a token only a simulation can price (a hooked pool),
 * its first candidate.
 */
import type { Manifest } from "../../../schema/Manifest.js"
import { findRoute } from "../../../src/routing/FindRoute.js"
import { defaultHopGas, defaultPathGas } from "../../../src/routing/Gas.js"
import type { Market } from "../../../src/routing/Market.js"
import type { Path } from "../../../src/routing/Path.js"
import { addressOf, hexOf } from "../../../test/support/hex.js"

const PROBE = 100n * 10n ** 6n

export const probePaths = (market: Market, manifest: Manifest) => {
  const usdc = addressOf(manifest.contracts["usdc"]!)
  const hubs = [
    usdc,
    ...manifest.tokenList.tokens.filter((t) => (t.tags ?? []).includes("hub")).map((t) => addressOf(t.address))
  ]
  return (token: string): Path => {
    const { bestSingle, candidates } = findRoute({
      market,
      tokenIn: usdc,
      tokenOut: hexOf(token),
      side: "exactIn",
      amount: PROBE,
      hubs,
      maxHops: 2,
      maxSplits: 1,
      allowVenue: () => true,
      gas: { perHop: defaultHopGas, perPath: defaultPathGas, gasPriceWei: 0n, tokenPrice: null }
    })
    return bestSingle?.legs[0]?.path ?? candidates[0]!.path
  }
}
