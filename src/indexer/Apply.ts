/**
 * Applies decoded events to an `IndexState`. Pure and synchronous: a whole block (or a whole catch-up
 * batch) goes in, one new state comes out, so no reader can ever observe part of it.
 */
import type { Hex } from "../../schema/Chain.js"
import { type ApplyContext, Draft } from "./Draft.js"
import type { ChainEvent } from "./Events.js"
import { movesBalances } from "./Holdings.js"
import { changeLiquidity, newV2Pool, newV3Pool, newV4Pool } from "./Pools.js"
import type { BlockRef, IndexState } from "./State.js"

const abs = (value: bigint): bigint => (value < 0n ? -value : value)

/** Who traded: the transaction's sender when it was read, else the event's own party. */
const trader = (context: ApplyContext, event: ChainEvent, fallback: Hex): Hex =>
  context.senders.get(event.at.tx) ?? fallback

const applyEvent = (draft: Draft, event: ChainEvent, context: ApplyContext): void => {
  switch (event._tag) {
    case "Transfer": {
      if (movesBalances(event, context.sources.usdc)) draft.transfer(event)
      return
    }
    case "V2PairCreated": {
      draft.learnToken(event.token0, event.at)
      draft.learnToken(event.token1, event.at)
      const venue = context.sources.v2Factories.get(event.emitter)!
      const rule = context.sources.v2Fees.get(venue)
      const feePips = rule?._tag === "Fixed" ? rule.feePips : context.pairFees.get(event.pair)
      // A per-pair venue's pair whose fee could not be read is left out: never priced at a guessed fee.
      if (feePips === undefined) return
      return draft.addPool(newV2Pool(event, venue, feePips))
    }
    case "V3PoolCreated": {
      draft.learnToken(event.token0, event.at)
      draft.learnToken(event.token1, event.at)
      return draft.addPool(newV3Pool(event, context.sources.v3Factories.get(event.emitter)!))
    }
    case "V4Initialize": {
      draft.learnToken(event.currency0, event.at)
      draft.learnToken(event.currency1, event.at)
      return draft.addPool(newV4Pool(event, context.sources.v4Managers.get(event.emitter)!))
    }
    case "V2Sync": {
      const pool = draft.pool(event.emitter)
      if (pool?.kind !== "v2") return
      return draft.setPool({ ...pool, reserve0: event.reserve0, reserve1: event.reserve1 })
    }
    case "V2Swap": {
      const pool = draft.pool(event.emitter)
      if (pool?.kind !== "v2") return
      return draft.swap(pool, event.amount0, event.amount1, trader(context, event, event.recipient), event.at)
    }
    case "V3Initialize": {
      const pool = draft.pool(event.emitter)
      if (pool?.kind !== "v3") return
      return draft.setPool({ ...pool, sqrtPriceX96: event.sqrtPriceX96, tick: event.tick })
    }
    case "V3Liquidity": {
      const pool = draft.pool(event.emitter)
      if (pool?.kind !== "v3") return
      return draft.setPool(changeLiquidity(pool, event.tickLower, event.tickUpper, event.delta))
    }
    case "V3Swap": {
      const pool = draft.pool(event.emitter)
      if (pool?.kind !== "v3") return
      draft.setPool({ ...pool, sqrtPriceX96: event.sqrtPriceX96, tick: event.tick, liquidity: event.liquidity })
      return draft.swap(pool, abs(event.amount0), abs(event.amount1), trader(context, event, event.recipient), event.at)
    }
    case "V4ModifyLiquidity": {
      const pool = draft.pool(event.id)
      if (pool?.kind !== "v4") return
      return draft.setPool(changeLiquidity(pool, event.tickLower, event.tickUpper, event.delta))
    }
    case "V4Swap": {
      const pool = draft.pool(event.id)
      if (pool?.kind !== "v4") return
      draft.setPool({
        ...pool,
        sqrtPriceX96: event.sqrtPriceX96,
        tick: event.tick,
        liquidity: event.liquidity,
        feePips: pool.dynamicFee ? event.fee : pool.feePips
      })
      return draft.swap(pool, abs(event.amount0), abs(event.amount1), trader(context, event, event.sender), event.at)
    }
    case "V4ProtocolFee": {
      const pool = draft.pool(event.id)
      if (pool?.kind !== "v4") return
      return draft.setPool({ ...pool, protocolFee: event.protocolFee })
    }
    case "TokenCreated": {
      const launchpad = context.sources.launchpads.get(event.emitter)!
      const launch = { launchpad, creator: event.creator, symbol: event.symbol, name: event.name }
      return draft.learnToken(event.token, event.at, launch)
    }
    case "CurveTrade": {
      if (draft.token(event.token) === undefined) return
      draft.curveTrade(event.token, event.isBuy, event.usdcAmount, event.tokenAmount)
      return draft.trade(event.token, event.tokenAmount, event.usdcAmount, event.trader, event.at)
    }
    case "Graduated":
      return draft.graduate(event.token)
  }
}

/** Applies `events` (in chain order) and moves the state to `end`. */
export const applyEvents = (
  state: IndexState,
  events: ReadonlyArray<ChainEvent>,
  end: BlockRef,
  context: ApplyContext
): IndexState => {
  const draft = new Draft(state, context)
  for (const event of events) applyEvent(draft, event, context)
  return draft.finish(end)
}
