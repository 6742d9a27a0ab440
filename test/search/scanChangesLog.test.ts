/**
 * The scan's changed tokens read from the index's touch log agree with comparing every pool of both
 * states, on a market built by applying real events step by step: new pairs (on USDC and between
 * tokens, so a token has several pools), syncs and swaps; across one step, many, a fork (a reorg's other
 * line), a reloaded checkpoint and a gap longer than the log keeps. Where the log can say, it is the log
 * that answers (`stepsBetween` is defined), else the comparison.
 */
import { describe, expect, it } from "@effect/vitest"
import { type Hex, USDC_ADDRESS } from "../../schema/Chain.js"
import { applyEvents } from "../../src/indexer/Apply.js"
import { CHUNK } from "../../src/indexer/Chunks.js"
import type { ChainEvent } from "../../src/indexer/Events.js"
import { emptyState, type IndexState } from "../../src/indexer/State.js"
import { KEPT_CHUNKS, stepsBetween } from "../../src/indexer/Touched.js"
import { changedTokens, changedTokensCompared } from "../../src/safety/Changes.js"
import { reloaded as reloadedState } from "../indexer/compare.js"
import { hexOf } from "../support/hex.js"
import { v2ApplyContext, v2Factory as factory } from "../support/v2Sources.js"

const address = (prefix: string, n: number) => hexOf(`0x${prefix}${n.toString(16).padStart(38, "0")}`)

const context = v2ApplyContext(USDC_ADDRESS)

/** A deterministic market: each step may list a token, pair two tokens, and sync or swap a few pairs. */
const market = (seed: number) => {
  let s = seed
  const next = (n: number) => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31
    return s % n
  }
  const tokens: Array<Hex> = []
  const pairs: Array<Hex> = []
  return (state: IndexState, tag: string): IndexState => {
    const block = state.block + 1
    const at = (logIndex: number) => ({ block, time: 1_000 + block, tx: hexOf("0x7478"), logIndex })
    const events: Array<ChainEvent> = []
    const pair = (token0: Hex, token1: Hex) => {
      const id = address(`${tag}a`, pairs.length)
      pairs.push(id)
      events.push({ _tag: "V2PairCreated", at: at(events.length), emitter: factory, token0, token1, pair: id })
    }
    if (next(3) === 0 || tokens.length < 2) {
      const token = address(`${tag}b`, tokens.length)
      tokens.push(token)
      pair(USDC_ADDRESS, token)
    }
    if (next(4) === 0) pair(tokens[next(tokens.length)]!, tokens[next(tokens.length)]!)
    for (let i = next(4); i > 0; i--) {
      const emitter = pairs[next(pairs.length)]!
      const amount = BigInt(1 + next(1_000))
      events.push(
        next(2) === 0
          ? { _tag: "V2Sync", at: at(events.length), emitter, reserve0: amount, reserve1: amount * 2n }
          : { _tag: "V2Swap", at: at(events.length), emitter, amount0: amount, amount1: 0n, recipient: factory }
      )
    }
    return applyEvents(state, events, { number: block, hash: null, time: 1_000 + block }, context)
  }
}

const line = (from: IndexState, steps: number, seed: number, tag: string): Array<IndexState> => {
  const step = market(seed)
  const states = [from]
  for (let i = 0; i < steps; i++) states.push(step(states.at(-1)!, tag))
  return states
}

const agree = (previous: IndexState, next: IndexState) =>
  expect(changedTokens(previous, next)).toEqual(changedTokensCompared(previous, next))

describe("changed tokens from the touch log", () => {
  const states = line(emptyState(1), 60, 7, "")

  it("agree with comparing every pool between any two states of a line, read from the log", () => {
    for (let i = 0; i < states.length; i++) {
      for (let j = i; j < states.length; j++) {
        expect(stepsBetween(states[i]!.touched, states[j]!.touched)).toHaveLength(j - i)
        agree(states[i]!, states[j]!)
      }
    }
    expect(changedTokens(states[10]!, states[40]!).length).toBeGreaterThan(2)
    expect(changedTokens(states[40]!, states[40]!)).toEqual([])
  })

  it("agree across a fork and a reloaded checkpoint, where the log cannot say", () => {
    const fork = line(states[30]!, 20, 99, "c")
    for (const [previous, next] of [[states[50]!, fork[10]!], [fork[15]!, states[45]!], [states[40]!, fork[5]!]]) {
      expect(stepsBetween(previous.touched, next.touched)).toBeUndefined()
      agree(previous, next)
    }
    // The fork's own line still reads from its log, back to the state it forked from.
    expect(stepsBetween(states[30]!.touched, fork[20]!.touched)).toHaveLength(20)
    agree(states[30]!, fork[20]!)
    const reloaded = reloadedState(states[50]!)
    const after = line(reloaded, 10, 5, "d")
    expect(stepsBetween(states[40]!.touched, after[10]!.touched)).toBeUndefined()
    expect(stepsBetween(reloaded.touched, after[10]!.touched)).toHaveLength(10)
    agree(states[40]!, after[10]!)
    agree(reloaded, after[10]!)
  })

  it("agree across a gap longer than the log keeps", () => {
    const long = line(emptyState(1), KEPT_CHUNKS * CHUNK + 300, 11, "")
    const first = long[10]!
    const last = long.at(-1)!
    expect(stepsBetween(first.touched, last.touched)).toBeUndefined()
    agree(first, last)
    const recent = long.at(-200)!
    expect(stepsBetween(recent.touched, last.touched)).toHaveLength(199)
    agree(recent, last)
  })
})
