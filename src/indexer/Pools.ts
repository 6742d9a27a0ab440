/**
 * Pool records and how each pool event changes them. Pure functions from a record to a new record.
 */
import { DYNAMIC_FEE_FLAG, ZERO_ADDRESS } from "../../schema/Chain.js"
import type { ConcentratedPool, TickRecord, V2Pool } from "../math/PoolState.js"
import type { V2PairCreated, V3PoolCreated, V4Initialize } from "./Events.js"

/** A pair of a v2 venue, with its fee: the venue's, or the pair's own. */
export const newV2Pool = (event: V2PairCreated, venue: string, feePips: number): V2Pool => ({
  kind: "v2",
  id: event.pair,
  venue,
  token0: event.token0,
  token1: event.token1,
  createdBlock: event.at.block,
  feePips,
  reserve0: 0n,
  reserve1: 0n
})

export const newV3Pool = (event: V3PoolCreated, venue: string): ConcentratedPool => ({
  kind: "v3",
  id: event.pool,
  venue,
  token0: event.token0,
  token1: event.token1,
  createdBlock: event.at.block,
  feePips: event.fee,
  dynamicFee: false,
  protocolFee: 0,
  tickSpacing: event.tickSpacing,
  hooks: null,
  sqrtPriceX96: 0n,
  tick: 0,
  liquidity: 0n,
  ticks: []
})

export const newV4Pool = (event: V4Initialize, venue: string): ConcentratedPool => {
  const dynamicFee = event.fee === DYNAMIC_FEE_FLAG
  return {
    kind: "v4",
    id: event.id,
    venue,
    token0: event.currency0,
    token1: event.currency1,
    createdBlock: event.at.block,
    feePips: dynamicFee ? 0 : event.fee,
    dynamicFee,
    protocolFee: 0,
    tickSpacing: event.tickSpacing,
    hooks: event.hooks === ZERO_ADDRESS ? null : event.hooks,
    sqrtPriceX96: event.sqrtPriceX96,
    tick: event.tick,
    liquidity: 0n,
    ticks: []
  }
}

const bump = (ticks: Array<TickRecord>, tick: number, netDelta: bigint, grossDelta: bigint): void => {
  let index = 0
  while (index < ticks.length && ticks[index]!.tick < tick) index++
  const found = ticks[index]
  if (found !== undefined && found.tick === tick) {
    const liquidityGross = found.liquidityGross + grossDelta
    if (liquidityGross === 0n) ticks.splice(index, 1)
    else ticks[index] = { tick, liquidityNet: found.liquidityNet + netDelta, liquidityGross }
  } else if (grossDelta !== 0n) {
    ticks.splice(index, 0, { tick, liquidityNet: netDelta, liquidityGross: grossDelta })
  }
}

/**
 * A position's liquidity changes by `delta` over [tickLower, tickUpper): both boundary ticks change and,
 * when the price is inside the range, so does the active liquidity (the contracts' exact rule).
 */
export const changeLiquidity = (
  pool: ConcentratedPool,
  tickLower: number,
  tickUpper: number,
  delta: bigint
): ConcentratedPool => {
  if (delta === 0n) return pool
  const ticks = [...pool.ticks]
  bump(ticks, tickLower, delta, delta)
  bump(ticks, tickUpper, -delta, delta)
  const inRange = pool.sqrtPriceX96 !== 0n && tickLower <= pool.tick && pool.tick < tickUpper
  return { ...pool, ticks, liquidity: inRange ? pool.liquidity + delta : pool.liquidity }
}
