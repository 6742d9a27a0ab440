/**
 * Safety verdict figures on the devnet's seeded market: cold verdict latency (every check a new size,
 * so nothing is cached: one `eth_simulateV1` round trip plus a cap probe, and the cap bisection on the
 * capped token), warm latency (the same check again at the same block), and throughput in verdicts
 * (fresh-wallet round trips) per second with several checks in flight, as a search scan would run them.
 *
 * The cold figures are taken twice in the same run, samples interleaved so both see the same machine
 * load: with the sell-back in the next block only (`SAFETY_HORIZONS=false`, the verdict before the
 * horizons) and with the horizons; for each, the `eth_simulateV1` requests and the transactions they
 * simulate per verdict, counted at the `Simulator`.
 */
import { Effect, Layer, ManagedRuntime } from "effect"
import { devnetPaymentSettings } from "../../devnet/accounts.js"
import { AppConfig } from "../../layers/AppConfig.js"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { Deployment } from "../../layers/Deployment.js"
import { Simulator } from "../../layers/Simulator.js"
import { RpcHex } from "../../schema/Chain.js"
import { AppServices } from "../../src/App.js"
import { ChainIndex } from "../../src/indexer/ChainIndex.js"
import { marketFromIndex } from "../../src/routing/Market.js"
import { SafetyCheck } from "../../src/safety/check/SafetyCheck.js"
import { addressOf } from "../../test/support/hex.js"
import { benchDevnet } from "./lib/devnet.js"
import { probePaths } from "./lib/probePaths.js"
import { figure, ms, percentile } from "./lib/report.js"
import { benchDataDir } from "./lib/stack.js"
import { random } from "./lib/synthetic.js"

const devnet = await benchDevnet("safety")
const manifest = devnet.manifest
const runtime = ManagedRuntime.make(
  SafetyCheck.Default.pipe(
    Layer.provideMerge(AppServices(Layer.succeed(Deployment, Deployment.make(manifest)))),
    Layer.provide(
      AppConfig.withSettings({
        ...devnetPaymentSettings(),
        DATA_DIR: benchDataDir(),
        CHECKPOINT_INTERVAL_SEC: "3600",
        // the figures are of the checks this benchmark makes, not of a background scan's
        SAFETY_SCAN: "false"
      })
    )
  )
)
const state = await runtime.runPromise(Effect.gen(function*() {
  const head = Number(yield* (yield* ChainRpc).read(RpcHex, "eth_blockNumber"))
  return (yield* (yield* ChainIndex).waitFor(head)).state
}))
const market = marketFromIndex(state)
const safety = await runtime.runPromise(SafetyCheck)
const config = await runtime.runPromise(AppConfig)

/** A SafetyCheck of its own (its own cache), horizons on or off, counting what it simulates. */
const variant = async (horizons: boolean) => {
  const counts = { requests: 0, transactions: 0, verdicts: 0 }
  const counted = Layer.effect(
    Simulator,
    Effect.map(Simulator.make, (inner) => ({
      ...inner,
      simulate: (request: Parameters<typeof inner.simulate>[0]) => {
        counts.requests++
        counts.transactions += request.blocks.reduce((sum, calls) => sum + calls.length, 0)
        return inner.simulate(request)
      }
    }))
  )
  const settings = Layer.succeed(AppConfig, AppConfig.make({ ...config, safety: { ...config.safety, horizons } }))
  const check = await runtime.runPromise(
    Effect.provide(
      SafetyCheck,
      SafetyCheck.DefaultWithoutDependencies.pipe(Layer.provide(counted), Layer.provide(settings))
    )
  )
  return { check, counts }
}
const variants = [
  { label: "next block only (before)", ...(await variant(false)) },
  { label: "with horizons (after)", ...(await variant(true)) }
]
const E6 = 10n ** 6n
const pathTo = probePaths(market, manifest)
const labels = ["DEGEN", "ORBIT", "TAX", "HONEY", "THIN", "ZAP", "BLOOM", "LAUNCH_GRAD"]
const paths = new Map(labels.map((label) => [label, pathTo(addressOf(manifest.tokens![label]!))]))
const capped = manifest.tokens!["CAPPED"]!.toLowerCase()
const cappedPath = pathTo(capped)
const pick = random(7)

const check = (label: string, amountInUsdc: bigint) =>
  Effect.runPromise(safety.check({
    token: addressOf(manifest.tokens![label]!),
    path: label === "CAPPED" ? cappedPath : paths.get(label)!,
    amountInUsdc,
    block: BigInt(state.block),
    pools: market.pool
  }))

const size = () => BigInt(1 + Math.floor(pick() * 500)) * E6 + BigInt(Math.floor(pick() * 1e6))

const timed = async (runs: number, label: () => string) => {
  const samples: Array<number> = []
  for (let i = 0; i < runs; i++) {
    const started = performance.now()
    await check(label(), size())
    samples.push(performance.now() - started)
  }
  return samples.sort((a, b) => a - b)
}

await timed(20, () => "DEGEN") // warm up the JIT and the node
const pathOf = (label: string) => (label === "CAPPED" ? cappedPath : paths.get(label)!)
const compare = async (runs: number, label: () => string, name: string) => {
  const samples = variants.map(() => [] as Array<number>)
  const before = variants.map(({ counts }) => ({ ...counts }))
  for (let i = 0; i < runs; i++) {
    const token = label()
    const amountInUsdc = size()
    for (const [v, { check }] of variants.entries()) {
      const started = performance.now()
      await Effect.runPromise(check.check({
        token: addressOf(manifest.tokens![token]!),
        path: pathOf(token),
        amountInUsdc,
        block: BigInt(state.block),
        pools: market.pool
      }))
      samples[v]!.push(performance.now() - started)
    }
  }
  for (const [v, { counts, label: which }] of variants.entries()) {
    const sorted = samples[v]!.sort((a, b) => a - b)
    const requests = (counts.requests - before[v]!.requests) / runs
    const transactions = (counts.transactions - before[v]!.transactions) / runs
    figure(
      `${name}, ${which}`,
      `p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}; per verdict ${
        requests.toFixed(1)
      } eth_simulateV1, ${transactions.toFixed(1)} simulated transactions`
    )
  }
}
await compare(300, () => labels[Math.floor(pick() * labels.length)]!, "cold verdict, 8 seeded tokens (new size each)")
await compare(40, () => "CAPPED", "cold verdict with cap bisection (CAPPED)")

const warmSamples: Array<number> = []
for (let i = 0; i < 2_000; i++) {
  const started = performance.now()
  await check("DEGEN", 100n * E6)
  warmSamples.push(performance.now() - started)
}
warmSamples.sort((a, b) => a - b)
figure(
  "warm verdict (cached: same token, route, size, block)",
  `p50 ${ms(percentile(warmSamples, 50))}, p99 ${ms(percentile(warmSamples, 99))}`
)

for (const concurrency of [1, 8]) {
  const total = 400
  const started = performance.now()
  let next = 0
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < total) {
      next++
      await check(labels[next % labels.length]!, size())
    }
  }))
  const seconds = (performance.now() - started) / 1000
  figure(`fresh-wallet round trips per second (${concurrency} in flight)`, `${(total / seconds).toFixed(0)} /s`)
}

await runtime.dispose()
await devnet.stop()
