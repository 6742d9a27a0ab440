/**
 * Indexer figures, each saying what it measures:
 * 1. decode + apply: a generated market of 10,000 v2 pools (181,000 logs) pushed through the indexer's
 *    own decode, enrichment scan and block application, in 2,000-block batches, without any network;
 * 2. memory: the heap the resulting index state holds, per 10,000 pools (with their tokens, holders
 *    and 24 h trades);
 * 3. catch-up over RPC: the indexer service catching up from the start block on a private anvil whose
 *    10,000 pools were built through Uniswap's own v2 factory: eth_getLogs, headers, token metadata and
 *    creator reads through ChainRpc, decode, apply, publish;
 * 4. restart: the same indexer started again on the checkpoint the first one wrote when it stopped;
 * 5. head-follow lag: one block (one new pool) at a time, from the node's answer to the transaction to
 *    the index publishing that block, with heads pushed by the node (the default) and, with the
 *    subscription off, polled every 100 ms.
 */
import { Effect, HashMap } from "effect"
import { ChainIndex } from "../../src/indexer/ChainIndex.js"
import { Indexer } from "../../src/indexer/Indexer.js"
import { offlineVenueFile } from "../../test/support/http.js"
import { realMarket } from "./lib/market.js"
import { replay } from "./lib/replay.js"
import { figure, heapMb, ms, percentile } from "./lib/report.js"
import { benchDataDir, indexRuntime } from "./lib/stack.js"
import { syntheticMarket } from "./lib/synthetic.js"

const POOLS = 10_000

const synthetic = () => {
  const before = heapMb()
  let market: ReturnType<typeof syntheticMarket> | undefined = syntheticMarket({
    pools: POOLS,
    swapsPerPool: 3,
    poolsPerBlock: 5
  })
  const logs = market.logs.length
  replay(market, 2_000) // JIT warm-up
  const started = performance.now()
  const state = replay(market, 2_000)
  const elapsed = performance.now() - started
  figure(
    `decode + apply, ${POOLS.toLocaleString("en")} pools, ${logs.toLocaleString("en")} logs`,
    `${Math.round(logs / (elapsed / 1000)).toLocaleString("en")} logs/s (${ms(elapsed)})`
  )
  // Only the state is left to hold on to: the logs and the warm-up's state are garbage now.
  market = undefined
  const held = heapMb() - before
  figure("memory of the index state", `${((held * 10_000) / HashMap.size(state.pools)).toFixed(1)} MB per 10,000 pools`)
}

const overRpc = async () => {
  const market = await realMarket(POOLS, (line) => figure("market", line))
  const deployment = {
    rpcUrl: market.anvil.url,
    chainId: 5042,
    startBlock: market.info.startBlock,
    contracts: { v2Factory: market.info.factory, usdc: market.info.quote },
    tokenList: { name: "bench", timestamp: "", version: { major: 1, minor: 0, patch: 0 }, tokens: [] },
    venues: {
      ...offlineVenueFile,
      venues: [{
        ...offlineVenueFile.venues[0],
        factory: market.info.factory,
        // the init code hash of @uniswap/v2-core's UniswapV2Pair, which the market's factory deploys
        pairInitCodeHash: "0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f"
      }] as const
    }
  }
  try {
    const baseline = heapMb()
    const head = market.head
    const dataDir = benchDataDir()
    const runtime = indexRuntime(deployment, { DATA_DIR: dataDir })
    const started = performance.now()
    const progress = await runtime.runPromise(Effect.gen(function*() {
      yield* Effect.flatMap(ChainIndex, (index) => index.waitFor(head))
      return yield* Effect.flatMap(Indexer, (indexer) => indexer.progress)
    }))
    const elapsed = performance.now() - started
    const state = await runtime.runPromise(
      Effect.map(Effect.flatMap(ChainIndex, (index) => index.snapshot), (s) => s.state)
    )
    figure(
      `catch-up over RPC, ${HashMap.size(state.pools).toLocaleString("en")} pools, ${
        progress.logsApplied.toLocaleString("en")
      } logs`,
      `${Math.round(progress.logsApplied / (elapsed / 1000)).toLocaleString("en")} logs/s (${ms(elapsed)}, ${
        HashMap.size(state.tokens).toLocaleString("en")
      } tokens' metadata read)`
    )
    figure(
      "heap held by the running indexer",
      `${(heapMb() - baseline).toFixed(1)} MB for ${HashMap.size(state.pools).toLocaleString("en")} pools`
    )
    await lag(runtime, market, "heads pushed (default)", 0)
    const stopped = performance.now()
    await runtime.dispose()
    figure("checkpoint written on stop", ms(performance.now() - stopped))
    const restarted = performance.now()
    const fast = indexRuntime(deployment, { DATA_DIR: dataDir, WS_URL: "off", INDEXER_POLL_MS: "100" })
    const resumed = await fast.runPromise(Effect.gen(function*() {
      yield* Effect.flatMap(ChainIndex, (index) => index.waitFor(state.block + 10))
      return yield* Effect.flatMap(Indexer, (indexer) => indexer.progress)
    }))
    figure(
      "restart from the checkpoint to the head",
      `${ms(performance.now() - restarted)} (resumed at block ${resumed.resumedFrom})`
    )
    await lag(fast, market, "no subscription, polled every 100 ms", 10)
    await fast.dispose()
  } finally {
    await market.anvil.stop()
  }
}

const lag = async (
  runtime: ReturnType<typeof indexRuntime>,
  market: Awaited<ReturnType<typeof realMarket>>,
  label: string,
  offset: number
) => {
  const samples: Array<number> = []
  for (let i = 0; i < 10; i++) {
    // anvil automines: the answer to the transaction comes once its block exists
    const block = await market.buildMore(POOLS + offset + i, 1)
    const mined = performance.now()
    await runtime.runPromise(Effect.flatMap(ChainIndex, (index) => index.waitFor(block)))
    samples.push(performance.now() - mined)
    await new Promise((resolve) => setTimeout(resolve, 137 * (i % 4)))
  }
  samples.sort((a, b) => a - b)
  figure(
    `head-follow lag, ${label} (10 blocks)`,
    `p50 ${ms(percentile(samples, 50))}, max ${ms(samples[samples.length - 1]!)}`
  )
}

synthetic()
overRpc().catch((error) => {
  console.error(error)
  process.exit(1)
})
