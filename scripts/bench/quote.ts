/**
 * Quote latency in-process on a private devnet: the whole `quote` operation as an HTTP handler calls
 * it, after the index caught up. Warm: the same order again (the verdict of that token, route, size and
 * block is cached); cold: a new size every call, so the sell-back simulation runs each time.
 */
import { Effect, Layer, ManagedRuntime, Schema } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Devnet, devnetDefaults } from "../../devnet/Devnet.js"
import { AppConfig } from "../../layers/AppConfig.js"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { Deployment } from "../../layers/Deployment.js"
import { QuoteRequest } from "../../schema/QuoteRequest.js"
import { ChainIndex } from "../../src/indexer/ChainIndex.js"
import { quote } from "../../src/quote/Quote.js"
import { figure, ms, percentile } from "./lib/report.js"
import { indexRuntime } from "./lib/stack.js"

const WARM = 400
const COLD = 60

const work = mkdtempSync(join(tmpdir(), "bench-quote-"))
const devnet = ManagedRuntime.make(
  Devnet.DefaultWith({ ...devnetDefaults, port: 0, verbose: false, manifestPath: join(work, "manifest.json") }).pipe(
    Layer.provide(AppConfig.Default)
  )
)

const summary = (label: string, samples: ReadonlyArray<number>) => {
  const sorted = [...samples].sort((a, b) => a - b)
  figure(label, `p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))} (${samples.length} calls)`)
}

try {
  const manifest = await devnet.runPromise(Effect.map(Devnet, (d) => d.manifest))
  const runtime = indexRuntime(Deployment.fromManifest(manifest))
  try {
    await runtime.runPromise(Effect.gen(function*() {
      const head = Number(yield* (yield* ChainRpc).request<string>("eth_blockNumber"))
      yield* (yield* ChainIndex).waitFor(head)
    }))
    const usdc = manifest.tokens!["USDC"]!
    const weth = manifest.tokens!["WETH"]!
    const ask = (amount: string) =>
      Schema.decodeUnknown(QuoteRequest)({ sell: usdc, buy: weth, amount }).pipe(Effect.orDie, Effect.flatMap(quote))
    const time = async (amount: string) => {
      const started = performance.now()
      await runtime.runPromise(ask(amount))
      return performance.now() - started
    }
    await time("2500")
    const warm: Array<number> = []
    for (let i = 0; i < WARM; i++) warm.push(await time("2500"))
    summary("quote USDC→WETH $2,500, warm (verdict cached)", warm)
    const cold: Array<number> = []
    for (let i = 0; i < COLD; i++) cold.push(await time(`${2_500 + i + 1}`))
    summary("quote USDC→WETH, cold (new size: fresh simulation)", cold)
  } finally {
    await runtime.dispose()
  }
} finally {
  await devnet.dispose()
}
