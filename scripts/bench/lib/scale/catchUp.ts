/**
 * Catch-up from an empty index against a running devnet (`keptDevnet.ts`; its manifest path as the
 * argument, a data directory as the second): time to the head, the CPU this process spent meanwhile
 * (`process.cpuUsage`, user + system: on a shared machine it moves less with the load than the wall
 * time), RSS at the head and the highest RSS sampled on the way, and the heap after GC. Given the
 * directory a first run left, the same from its checkpoint (a restart). Run it from two builds against
 * the same devnet to compare them. Needs `node --expose-gc` for the heap figure.
 */
import { Effect, HashMap } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { loadavg } from "node:os"
import { ChainRpc } from "../../../../layers/ChainRpc.js"
import { Deployment } from "../../../../layers/Deployment.js"
import { RpcHex } from "../../../../schema/Chain.js"
import { ChainIndex } from "../../../../src/indexer/ChainIndex.js"
import { heapMb } from "../report.js"
import { benchDataDir, indexRuntime } from "../stack.js"

const manifest = JSON.parse(readFileSync(process.argv[2]!, "utf8"))
const dataDir = process.argv[3] ?? benchDataDir()
const label = readdirSync(dataDir).length === 0 ? "from an empty index" : "from its checkpoint"
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0)
const run = async () => {
  let peak = 0
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, 50)
  const runtime = indexRuntime(Deployment.make(manifest), { DATA_DIR: dataDir })
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  const state = await runtime.runPromise(Effect.gen(function*() {
    const head = Number(yield* (yield* ChainRpc).read(RpcHex, "eth_blockNumber"))
    return (yield* (yield* ChainIndex).waitFor(head)).state
  }))
  const ms = performance.now() - t0
  const cpu = process.cpuUsage(cpu0)
  clearInterval(sampler)
  const rss = process.memoryUsage.rss()
  peak = Math.max(peak, rss)
  const heap = heapMb()
  const pools = [...HashMap.keys(state.pools)].length
  console.log(
    `${label}: ${pools} pools at block ${state.block} in ${(ms / 1000).toFixed(2)} s, CPU ${
      ((cpu.user + cpu.system) / 1e6).toFixed(2)
    } s; heap ${heap.toFixed(0)} MB, RSS ${mb(rss)} MB (peak ${mb(peak)} MB); load ${
      loadavg().map((l) => l.toFixed(1)).join(" ")
    }`
  )
  await runtime.dispose()
}
await run()
console.log(`data dir ${dataDir}`)
