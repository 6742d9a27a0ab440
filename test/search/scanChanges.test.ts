/**
 * What the scan picks between two index states: both tokens of a new or touched pool, nothing for an
 * untouched pool (the same immutable record), everything without an earlier state; newest token last.
 */
import { describe, expect, it } from "@effect/vitest"
import { HashMap } from "effect"
import type { Hex } from "../../schema/Chain.js"
import { emptyState, type IndexState, type TokenFacts } from "../../src/indexer/State.js"
import type { V2Pool } from "../../src/math/PoolState.js"
import { changedTokens } from "../../src/safety/Changes.js"

const pool = (id: string, token0: string, token1: string, reserve = 1n): V2Pool => ({
  id: id as Hex,
  venue: "uniswap-v2",
  token0: token0 as Hex,
  token1: token1 as Hex,
  createdBlock: 1,
  kind: "v2",
  feePips: 3000,
  reserve0: reserve,
  reserve1: reserve
})

const facts = (address: string, seq: number): TokenFacts => ({
  address: address as Hex,
  symbol: address,
  name: address,
  decimals: 18,
  metadataOk: true,
  seq,
  createdBlock: 1,
  createdTime: 0,
  createdLog: 0,
  creator: null,
  launchpad: null,
  graduated: false,
  curve: null,
  pools: []
})

const stateWith = (pools: ReadonlyArray<V2Pool>, tokens: ReadonlyArray<TokenFacts>): IndexState => ({
  ...emptyState(1),
  pools: HashMap.fromIterable(pools.map((p) => [p.id, p] as const)),
  tokens: HashMap.fromIterable(tokens.map((t) => [t.address, t] as const))
})

describe("tokens the scan picks", () => {
  const tokens = [facts("0xusdc", 0), facts("0xa", 1), facts("0xb", 2), facts("0xc", 3)]
  const ab = pool("0xp1", "0xa", "0xusdc")
  const bc = pool("0xp2", "0xb", "0xusdc")
  const before = stateWith([ab, bc], tokens)

  it("everything in a pool when there is no earlier state, newest last", () => {
    expect(changedTokens(undefined, before)).toEqual(["0xusdc", "0xa", "0xb"])
  })

  it("only the tokens of touched and new pools", () => {
    expect(changedTokens(before, before)).toEqual([])
    const after = stateWith([ab, pool("0xp2", "0xb", "0xusdc", 2n), pool("0xp3", "0xc", "0xusdc")], tokens)
    expect(changedTokens(before, after)).toEqual(["0xusdc", "0xb", "0xc"])
  })
})
