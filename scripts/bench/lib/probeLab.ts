/**
 * The owner-power probe (src/safety/powers/Probe.ts) of every token paired with USDC on a private
 * devnet, with this build's lab code and another commit's, alternated on the same block: wall time
 * per probe and gas per probe. Gas is exact; the times are relative (the node shares the machine).
 *
 *   BASE=<commit> [ROUNDS=3] npx tsx scripts/bench/lib/probeLab.ts
 */
import { Effect, HashMap } from "effect"
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { getAddress, type Hex } from "viem"
import { ChainRpc } from "../../../layers/ChainRpc.js"
import { Deployment, usdcOf } from "../../../layers/Deployment.js"
import { Simulator } from "../../../layers/Simulator.js"
import { ChainIndex } from "../../../src/indexer/ChainIndex.js"
import { readAccounts } from "../../../src/safety/powers/Accounts.js"
import { dispatchedSelectors } from "../../../src/safety/powers/Dispatch.js"
import { judge } from "../../../src/safety/powers/Judge.js"
import { labCode, STRANGER } from "../../../src/safety/powers/Lab.js"
import { runProbe } from "../../../src/safety/powers/Probe.js"
import { benchDevnet } from "./devnet.js"
import { percentile } from "./report.js"
import { indexRuntime } from "./stack.js"

const base = process.env.BASE ?? "main"
const rounds = Number(process.env.ROUNDS ?? 3)
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")
const artifact = execFileSync("git", ["show", `${base}:build/contracts/PowerLab.json`], { encoding: "utf8" })
const baseLab = `0x${(JSON.parse(artifact) as { deployedBytecode: string }).deployedBytecode.replace(/^0x/, "")}` as Hex

const devnet = await benchDevnet("probe-lab")
const runtime = indexRuntime(Deployment.make(devnet.manifest))
const runs = { base: { ms: [] as Array<number>, gas: 0n }, this: { ms: [] as Array<number>, gas: 0n } }
// What each (token, pool) probe showed with each lab, raw and judged: a faster lab must show the same.
// Keyed by the pool too: a token paired with USDC in several pools is probed once per pool, and the
// victim's funding is a share of that pool's balance, so two pools' probes differ in their raw figures.
const seen = new Map<string, { readonly raw: string; readonly powers: string }>()
let differing = 0
let rawDiffering = 0
const bigints = (_: string, value: unknown) => typeof value === "bigint" ? value.toString() : value
// The gas of every simulated call, summed into the run the probe belongs to.
let gasOf: "base" | "this" = "base"
const counted = Effect.map(Simulator.make, (simulator) =>
  Simulator.of({
    ...simulator,
    simulate: (request) =>
      Effect.tap(simulator.simulate(request), (blocks) =>
        Effect.sync(() => {
          runs[gasOf].gas += blocks.flat().reduce((sum, call) => sum + call.gasUsed, 0n)
        }))
  }))

await runtime.runPromise(
  Effect.gen(function*() {
    const index = yield* ChainIndex
    const head = yield* (yield* ChainRpc).use("head", (c) => c.getBlockNumber())
    yield* index.waitFor(Number(head))
    const { state } = yield* index.snapshot
    const usdc = usdcOf(yield* Deployment)
    const code = yield* labCode
    const block = BigInt(state.block)
    const inputs = []
    for (const pool of HashMap.values(state.pools)) {
      const token = pool.token0 === usdc ? pool.token1 : pool.token1 === usdc ? pool.token0 : undefined
      if (pool.kind !== "v2" || token === undefined) continue
      const accounts = yield* readAccounts(getAddress(token), block)
      const selectors = [...new Set(accounts.codes.flatMap(dispatchedSelectors))]
      const callers = accounts.candidates.map((c) => c.address).slice(0, 6)
      if (selectors.length > 0 && callers.length > 0) {
        inputs.push({ token: getAddress(token), pool: getAddress(pool.id), block, selectors, callers })
      }
    }
    const labs = [["base", baseLab], ["this", code.lab]] as const
    console.log(`${inputs.length} tokens at block ${block}, ${rounds} rounds; load ${load()}`)
    for (let round = 0; round < rounds; round++) {
      for (const input of inputs) {
        for (const [name, lab] of round % 2 === 0 ? labs : [...labs].reverse()) {
          gasOf = name
          const t0 = performance.now()
          const observed = yield* runProbe({ ...input, code: { lab, puppet: code.puppet } })
          runs[name].ms.push(performance.now() - t0)
          const shown = { raw: JSON.stringify(observed, bigints), powers: JSON.stringify(judge(observed, STRANGER)) }
          const other = seen.get(`${input.token}|${input.pool}|${name === "base" ? "this" : "base"}`)
          if (other !== undefined && other.powers !== shown.powers) differing++
          if (other !== undefined && other.raw !== shown.raw) rawDiffering++
          seen.set(`${input.token}|${input.pool}|${name}`, shown)
        }
      }
    }
  }).pipe(Effect.provideServiceEffect(Simulator, counted))
)
for (const [name, run] of Object.entries(runs)) {
  const sorted = [...run.ms].sort((a, b) => a - b)
  const total = sorted.reduce((a, b) => a + b, 0)
  console.log(
    `${name === "base" ? base : "this build"}: ${sorted.length} probes, ${total.toFixed(0)} ms, p50 ${
      percentile(sorted, 50).toFixed(1)
    } ms, gas ${run.gas / BigInt(rounds)} per round`
  )
}
console.log(
  `probes whose judged powers differ between the two labs: ${differing}; whose raw observations do: ${rawDiffering}; load ${load()}`
)
await runtime.dispose()
await devnet.stop()
