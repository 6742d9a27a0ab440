/**
 * A fill is the router's `PlanExecuted` for the quote's tag with the quote's taker as `msg.sender`:
 * another account cannot forge one (the router takes the taker from the call), so a fill in a
 * transaction the caller did not list is the taker's own second execution, never someone's noise.
 * Found in the listed receipts and in the logs query; the same log seen twice counts once.
 */
import { decodePlanExecuted, type PlanExecuted, planExecutedTopics, quoteTag } from "../execution/RouterPlan.js"
import type { ChainView, RpcLog } from "./ChainRead.js"

export interface Fill {
  readonly txHash: string
  readonly block: number
  readonly event: PlanExecuted
}

export const fillsOf = (
  view: ChainView,
  quoteId: string,
  router: string,
  taker: `0x${string}`
): ReadonlyArray<Fill> => {
  const wanted = planExecutedTopics(quoteTag(quoteId), taker).map((t) => t.toLowerCase())
  const isFill = (log: RpcLog) =>
    log.address.toLowerCase() === router.toLowerCase() && log.topics.length === wanted.length &&
    wanted.every((topic, i) => log.topics[i]?.toLowerCase() === topic)
  const logs = [...view.listed.flatMap((listed) => listed.receipt?.logs ?? []), ...view.logs]
  const seen = new Map<string, Fill>()
  for (const log of logs) {
    const key = `${log.transactionHash.toLowerCase()}:${Number(log.logIndex)}`
    if (seen.has(key) || !isFill(log)) continue
    seen.set(key, {
      txHash: log.transactionHash.toLowerCase(),
      block: Number(log.blockNumber),
      event: decodePlanExecuted(log)
    })
  }
  return [...seen.values()].sort((a, b) => a.block - b.block)
}
