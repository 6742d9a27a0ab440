/**
 * Route search figures: latency of `findRoute` on the devnet's seeded market (three venues, hooked
 * pools, hubs) and on a generated index of 10,000 pools; split output against the best single path and
 * a brute-force 1 % grid over a table of sizes; and the speed against pricing the same candidates with
 * the venues' on-chain quoters at the same block.
 * Longer than most: the three measurements share one devnet index and one synthetic market.
 */
import { Effect } from "effect"
import { formatUnits } from "viem"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { Deployment } from "../../layers/Deployment.js"
import { RpcHex, USDC_ADDRESS as SYNTHETIC_USDC } from "../../schema/Chain.js"
import { ChainIndex } from "../../src/indexer/ChainIndex.js"
import type { IndexState } from "../../src/indexer/State.js"
import { findRoute, type RouteRequest } from "../../src/routing/FindRoute.js"
import { defaultHopGas, defaultPathGas } from "../../src/routing/Gas.js"
import { marketFromIndex } from "../../src/routing/Market.js"
import { noTaxes, runPath } from "../../src/routing/Path.js"
import { bruteForce } from "../../test/routing/fixtures.js"
import { addressOf, hexOf } from "../../test/support/hex.js"
import { benchDevnet } from "./lib/devnet.js"
import { chainQuoter } from "./lib/quoters.js"
import { replay } from "./lib/replay.js"
import { figure, ms, percentile } from "./lib/report.js"
import { random, syntheticMarket } from "./lib/synthetic.js"

const devnet = await benchDevnet("routing")
const manifest = devnet.manifest
const { indexRuntime } = await import("./lib/stack.js")
const runtime = indexRuntime(Deployment.make(manifest))
const state: IndexState = await runtime.runPromise(Effect.gen(function*() {
  const head = Number(yield* (yield* ChainRpc).read(RpcHex, "eth_blockNumber"))
  return (yield* (yield* ChainIndex).waitFor(head)).state
}))

const token = (label: string) => manifest.tokens![label]!.toLowerCase()
const [USDC, WETH, WBTC, DEGEN, ORBIT] = ["USDC", "WETH", "WBTC", "DEGEN", "ORBIT"].map(token) as [
  string,
  string,
  string,
  string,
  string
]
const hubs = [
  hexOf(USDC),
  ...manifest.tokenList.tokens.filter((t) => (t.tags ?? []).includes("hub")).map((t) => addressOf(t.address))
]
const E6 = 10n ** 6n
const E18 = 10n ** 18n
const prices: Record<string, { tokenRaw: bigint; usdcRaw: bigint }> = {
  [USDC]: { tokenRaw: E6, usdcRaw: E6 },
  [WETH]: { tokenRaw: E18, usdcRaw: 3000n * E6 },
  [WBTC]: { tokenRaw: 10n ** 8n, usdcRaw: 60_000n * E6 },
  [DEGEN]: { tokenRaw: 200n * E18, usdcRaw: E6 },
  [ORBIT]: { tokenRaw: E18, usdcRaw: E6 }
}

const request = (
  from: string,
  to: string,
  side: RouteRequest["side"],
  amount: bigint,
  maxSplits = 3
): RouteRequest => ({
  market: marketFromIndex(state),
  tokenIn: hexOf(from),
  tokenOut: hexOf(to),
  side,
  amount,
  hubs,
  maxHops: 2,
  maxSplits,
  allowVenue: () => true,
  gas: {
    perHop: defaultHopGas,
    perPath: defaultPathGas,
    gasPriceWei: 20n * 10n ** 9n,
    tokenPrice: prices[side === "exactIn" ? to : from] ?? null
  }
})

const mix: ReadonlyArray<readonly [string, () => RouteRequest]> = [
  ["USDC→WETH $1k", () => request(USDC, WETH, "exactIn", 1_000n * E6)],
  ["USDC→WETH $100k", () => request(USDC, WETH, "exactIn", 100_000n * E6)],
  ["USDC→WETH $2M", () => request(USDC, WETH, "exactIn", 2_000_000n * E6)],
  ["USDC→WETH exactOut 100 WETH", () => request(USDC, WETH, "exactOut", 100n * E18)],
  ["WETH→USDC 10 WETH", () => request(WETH, USDC, "exactIn", 10n * E18)],
  ["WETH→WBTC 50 WETH (graph)", () => request(WETH, WBTC, "exactIn", 50n * E18)],
  ["USDC→DEGEN $5k", () => request(USDC, DEGEN, "exactIn", 5_000n * E6)],
  ["ORBIT→USDC 20k ORBIT", () => request(ORBIT, USDC, "exactIn", 20_000n * E18)]
]

const time = (run: () => void, repeat: number): Array<number> =>
  Array.from({ length: repeat }, () => {
    const started = performance.now()
    run()
    return performance.now() - started
  }).sort((a, b) => a - b)

console.log(`   devnet index: ${state.pools.pipe((p) => [...p].length)} pools at block ${state.block}`)
for (let i = 0; i < 20; i++) for (const [, make] of mix) findRoute(make()) // warm-up
const all: Array<number> = []
for (const [label, make] of mix) {
  const samples = time(() => findRoute(make()), 100)
  all.push(...samples)
  figure(`findRoute ${label}`, `p50 ${ms(percentile(samples, 50))}, p99 ${ms(percentile(samples, 99))}`)
}
all.sort((a, b) => a - b)
figure("findRoute, whole devnet mix", `p50 ${ms(percentile(all, 50))}, p99 ${ms(percentile(all, 99))}`)

// ---- split vs best single path vs brute force ----
const bps = (a: bigint, b: bigint) => (Number(((a - b) * 1_000_000n) / b) / 100).toFixed(2)
console.log("\n   USDC→WETH exactIn, maxSplits 3, gas at 20 gwei netted; brute force: 1 % grid over the plan's paths")
console.log(
  "   size USDC     legs  best single WETH      split WETH            vs single bp  brute force WETH      vs brute bp"
)
for (const usdc of [10_000n, 100_000n, 500_000n, 1_000_000n, 2_000_000n, 5_000_000n]) {
  const result = findRoute(request(USDC, WETH, "exactIn", usdc * E6))
  const best = result.best!
  const single = result.bestSingle!
  const grid = bruteForce(marketFromIndex(state), best.legs.map((leg) => leg.path), "exactIn", usdc * E6, 100).value
  const cells = [
    usdc.toString().padEnd(13),
    String(best.legs.length).padEnd(5),
    formatUnits(single.amountOut, 18).slice(0, 20).padEnd(21),
    formatUnits(best.amountOut, 18).slice(0, 20).padEnd(21),
    bps(best.amountOut, single.amountOut).padEnd(13),
    formatUnits(grid, 18).slice(0, 20).padEnd(21),
    bps(best.amountOut, grid)
  ]
  console.log(`   ${cells.join(" ")}`)
}

// ---- speed against the venues' quoters ----
console.log("")
const quote = chainQuoter(manifest, marketFromIndex(state))
let pricingTotal = 0
let searchTotal = 0
let chainTotal = 0
for (const [label, make] of mix) {
  const req = make()
  if (req.side !== "exactIn") continue
  const candidates = findRoute(req).candidates.map((c) => c.path)
  const priceAll = () => {
    const market = marketFromIndex(state)
    for (const path of candidates) runPath(path, "exactIn", req.amount, market.pool, noTaxes)
  }
  const pricing = percentile(time(priceAll, 50), 50)
  const search = percentile(time(() => findRoute(make()), 30), 50)
  const chain: Array<number> = []
  for (let i = 0; i < 5; i++) {
    const started = performance.now()
    await quote(candidates, req.amount, BigInt(state.block))
    chain.push(performance.now() - started)
  }
  const onChain = percentile(chain.sort((a, b) => a - b), 50)
  pricingTotal += pricing
  searchTotal += search
  chainTotal += onChain
  figure(
    `${label}: ${candidates.length} candidates`,
    `quoters ${ms(onChain)}; in memory ${ms(pricing)} (${(onChain / pricing).toFixed(0)}×), ` +
      `whole search ${ms(search)} (${(onChain / search).toFixed(0)}×)`
  )
}
figure(
  "whole mix, quoters vs in memory",
  `${(chainTotal / pricingTotal).toFixed(0)}× pricing the candidates, ${(chainTotal / searchTotal).toFixed(0)}× ` +
    "for the whole search (split optimisation included)"
)
await runtime.dispose()
await devnet.stop()

// ---- a generated index of realistic size ----
const synthetic = replay(syntheticMarket({ pools: 10_000, swapsPerPool: 1, poolsPerBlock: 25 }), 2_000)
const tokens = [...synthetic.tokens.pipe((t) => [...t].map(([address]) => address))].filter((t) => t !== SYNTHETIC_USDC)
const hub = tokens.find((t) => t.startsWith("0x000000b0"))!
const pick = random(7)
const big = synthetic.pools.pipe((p) => [...p].length)
const samples: Array<number> = []
for (let i = 0; i < 2_000; i++) {
  const from = tokens[Math.floor(pick() * tokens.length)]!
  const to = tokens[Math.floor(pick() * tokens.length)]!
  if (from === to) continue
  const started = performance.now()
  findRoute({
    market: marketFromIndex(synthetic),
    tokenIn: from,
    tokenOut: to,
    side: "exactIn",
    amount: BigInt(1 + Math.floor(pick() * 1000)) * E18,
    hubs: [SYNTHETIC_USDC, hub],
    maxHops: 3,
    maxSplits: 3,
    allowVenue: () => true,
    gas: { perHop: defaultHopGas, perPath: defaultPathGas, gasPriceWei: 20n * 10n ** 9n, tokenPrice: null }
  })
  if (i >= 200) samples.push(performance.now() - started)
}
samples.sort((a, b) => a - b)
figure(
  `findRoute over ${big} generated pools (2-3 hops)`,
  `p50 ${ms(percentile(samples, 50))}, p99 ${ms(percentile(samples, 99))}`
)
