/**
 * The safety tests' shared pieces: the service's own composition (index + SafetyCheck) over a devnet,
 * the index's market at its block, and the best single USDC → token path as route search finds it.
 */
import { Effect, Layer, ManagedRuntime } from "effect"
import type { Address } from "viem"
import type { Manifest } from "../../schema/Manifest.js"
import type { SafetyVerdict } from "../../schema/Token.js"
import type { IndexState } from "../../src/indexer/State.js"
import { findRoute } from "../../src/routing/FindRoute.js"
import { defaultHopGas, defaultPathGas } from "../../src/routing/Gas.js"
import { type Market, marketFromIndex } from "../../src/routing/Market.js"
import type { Path } from "../../src/routing/Path.js"
import { SafetyCheck } from "../../src/safety/check/SafetyCheck.js"
import { addressOf } from "../support/hex.js"
import { indexLayer, synced } from "../support/services.js"

export const E6 = 10n ** 6n

export const safetyRuntime = (manifest: Manifest, settings: Readonly<Record<string, string>> = {}) =>
  ManagedRuntime.make(SafetyCheck.Default.pipe(Layer.provideMerge(indexLayer(manifest, { settings }))))

export type SafetyRuntime = ReturnType<typeof safetyRuntime>

export interface Snapshot {
  readonly state: IndexState
  readonly market: Market
}

export const snapshotOf = (runtime: SafetyRuntime): Promise<Snapshot> =>
  runtime.runPromise(
    Effect.map(synced, (snapshot) => ({ state: snapshot.state, market: marketFromIndex(snapshot.state) }))
  )

const lower = (address: string) => addressOf(address)

/** Route search's best single path from USDC to `token` for `amount` (direct or through hubs), on the
 * venues `allowVenue` admits. */
export const bestPath = (
  manifest: Manifest,
  market: Market,
  token: Address,
  amount: bigint,
  allowVenue: (venue: string) => boolean = () => true
): Path => {
  const usdc = lower(manifest.contracts["usdc"]!)
  const hubs = [
    usdc,
    ...manifest.tokenList.tokens.filter((t) => (t.tags ?? []).includes("hub")).map((t) => lower(t.address))
  ]
  const result = findRoute({
    market,
    tokenIn: usdc,
    tokenOut: lower(token),
    side: "exactIn",
    amount,
    hubs,
    maxHops: 2,
    maxSplits: 1,
    allowVenue,
    gas: { perHop: defaultHopGas, perPath: defaultPathGas, gasPriceWei: 0n, tokenPrice: null }
  })
  const path = result.bestSingle?.legs[0]?.path ?? result.candidates[0]?.path
  if (path === undefined) throw new Error(`no path from USDC to ${token}`)
  return path
}

export const checkToken = (
  runtime: SafetyRuntime,
  snapshot: Snapshot,
  manifest: Manifest,
  token: Address,
  amountInUsdc: bigint,
  pathTo: Address = token
): Promise<SafetyVerdict> =>
  runtime.runPromise(Effect.flatMap(SafetyCheck, (safety) =>
    safety.check({
      token: lower(token),
      path: bestPath(manifest, snapshot.market, pathTo, amountInUsdc),
      amountInUsdc,
      block: BigInt(snapshot.state.block),
      pools: snapshot.market.pool
    })))
