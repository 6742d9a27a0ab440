/**
 * The last blocks applied, each with its hash and the state after it: what a reorg rolls back to. Only
 * blocks whose hash the indexer checked are here (the follow phase, and the end of each catch-up batch).
 */
import type { Hex } from "../../schema/Chain.js"
import type { IndexState } from "./State.js"

export interface RecentBlock {
  readonly number: number
  readonly hash: Hex
  readonly state: IndexState
}

/** Oldest first, at most `size` entries. */
export type Recent = ReadonlyArray<RecentBlock>

export const pushRecent = (recent: Recent, block: RecentBlock, size: number): Recent => {
  const kept = recent.filter((entry) => entry.number < block.number)
  kept.push(block)
  return kept.length > size ? kept.slice(kept.length - size) : kept
}

/** The newest entry whose hash the chain still has, given the chain's hashes at those heights. */
export const commonAncestor = (recent: Recent, chainHashes: ReadonlyMap<number, Hex>): RecentBlock | undefined => {
  for (let i = recent.length - 1; i >= 0; i--) {
    const entry = recent[i]!
    if (chainHashes.get(entry.number) === entry.hash) return entry
  }
  return undefined
}

export const upTo = (recent: Recent, number: number): Recent => recent.filter((entry) => entry.number <= number)
