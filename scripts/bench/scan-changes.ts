/**
 * One look of the safety scan at what changed (src/safety/Changes.ts), in memory: a market of N pools
 * built by applying pair creations, then steps of a few syncs and swaps each; the look spans a few
 * steps, as at a 250 ms interval on 0.5 s blocks. The touch log's answer (what the scan uses) and the
 * comparison of every pool (the fallback, and the code before issue 37) alternate on the same states
 * and must agree. `npx tsx scripts/bench/scan-changes.ts [pools…]` (default 1000 10000 20000).
 */
import { loadavg } from "node:os"
import { type Hex, USDC_ADDRESS } from "../../schema/Chain.js"
import { applyEvents } from "../../src/indexer/Apply.js"
import type { ChainEvent } from "../../src/indexer/Events.js"
import { emptyState, type IndexState } from "../../src/indexer/State.js"
import { changedTokens, changedTokensCompared } from "../../src/safety/Changes.js"
import { v2ApplyContext, v2Factory as factory } from "../../test/support/v2Sources.js"

const address = (kind: string, n: number) => `0x${kind}${n.toString(16).padStart(39, "0")}` as Hex
const context = v2ApplyContext(USDC_ADDRESS)

const STEPS_PER_LOOK = 2
const TOUCHED_PER_STEP = 10
const LOOKS = 200

const at = (block: number, logIndex: number) => ({ block, time: block, tx: factory, logIndex })
const apply = (state: IndexState, events: ReadonlyArray<ChainEvent>) =>
  applyEvents(state, events, { number: state.block + 1, hash: null, time: state.block + 1 }, context)

const run = (pools: number) => {
  // Half the pools on USDC, half between tokens: a token has several pools.
  const tokens = Math.ceil(pools / 2)
  const created: Array<ChainEvent> = []
  for (let i = 0; i < pools; i++) {
    const token0 = i < tokens ? USDC_ADDRESS : address("b", i % tokens)
    const token1 = address("b", i < tokens ? i : (i * 7 + 1) % tokens)
    created.push({ _tag: "V2PairCreated", at: at(1, i), emitter: factory, token0, token1, pair: address("a", i) })
  }
  const states = [apply(emptyState(1), created)]
  for (let s = 0; s < LOOKS * STEPS_PER_LOOK; s++) {
    const events: Array<ChainEvent> = []
    for (let k = 0; k < TOUCHED_PER_STEP; k++) {
      const emitter = address("a", (s * 7_919 + k * 104_729) % pools)
      const amount = BigInt(s + k + 1)
      events.push(
        k % 2 === 0
          ? { _tag: "V2Sync", at: at(s + 2, k), emitter, reserve0: amount, reserve1: amount }
          : { _tag: "V2Swap", at: at(s + 2, k), emitter, amount0: amount, amount1: 0n, recipient: factory }
      )
    }
    states.push(apply(states.at(-1)!, events))
  }
  const time = { log: 0, compared: 0 }
  for (let look = 0; look < LOOKS; look++) {
    const previous = states[look * STEPS_PER_LOOK]!
    const next = states[(look + 1) * STEPS_PER_LOOK]!
    // Alternate which goes first, so neither always runs on a warmer cache.
    const order = look % 2 === 0 ? (["log", "compared"] as const) : (["compared", "log"] as const)
    const answers: Record<string, ReadonlyArray<Hex>> = {}
    for (const way of order) {
      const started = performance.now()
      answers[way] = way === "log" ? changedTokens(previous, next) : changedTokensCompared(previous, next)
      time[way] += performance.now() - started
    }
    if (JSON.stringify(answers.log) !== JSON.stringify(answers.compared)) throw new Error(`disagree at look ${look}`)
  }
  const perLook = (total: number) => (total / LOOKS * 1000).toFixed(1)
  console.log(
    `${pools} pools: touch log ${perLook(time.log)} µs/look, compare every pool ${perLook(time.compared)} µs/look, ` +
      `ratio ${
        (time.compared / time.log).toFixed(0)
      }× (${LOOKS} looks of ${STEPS_PER_LOOK} steps × ${TOUCHED_PER_STEP} pools)`
  )
}

const sizes = process.argv.slice(2).map(Number)
console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(" ")}`)
for (const pools of sizes.length > 0 ? sizes : [1_000, 10_000, 20_000]) run(pools)
console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(" ")}`)
