/**
 * The pools each step of the index touched (new, or a new record: a sync, a swap, a liquidity change),
 * as one log the recent states share (./Chunks.ts): what changed between a state and a later one of the
 * same line is read from the steps between them, not found by comparing every pool of both.
 * Only the last `KEPT_CHUNKS` chunks of steps are kept; a reader reaching further back compares pools.
 */
import type { Hex } from "../../schema/Chain.js"
import { appendOwned, CHUNK, type Chunks, ownedChunks } from "./Chunks.js"

/** One applied step: every step adds one, touching pools or not, so a step's record marks its line. */
export interface Step {
  readonly block: number
  readonly pools: ReadonlyArray<Hex>
}

export interface TouchLog {
  /** Made once per line's first state (start-up, a checkpoint): logs of other lines never compare. */
  readonly origin: object
  /** Position of the first kept step; earlier ones were dropped a chunk at a time. */
  readonly start: number
  /** Position after the last step. */
  readonly end: number
  readonly chunks: Chunks<Step>
}

/**
 * 4 × 256 steps: at a step a block, 8 minutes at 0.5 s blocks, far beyond the scan's interval, while a
 * busy chain's ids (a few hundred pools a block) stay a few MB.
 */
export const KEPT_CHUNKS = 4

export const emptyLog = (): TouchLog => ({ origin: {}, start: 0, end: 0, chunks: [] })

/** `log` with one more step, its oldest chunk dropped once more than `KEPT_CHUNKS` are held. */
export const logStep = (log: TouchLog, step: Step): TouchLog => {
  const drop = log.chunks.length >= KEPT_CHUNKS && log.chunks.at(-1)!.length >= CHUNK ? 1 : 0
  const chunks = ownedChunks(log.chunks, drop)
  appendOwned(chunks, step)
  return { origin: log.origin, start: log.start + drop * CHUNK, end: log.end + 1, chunks }
}

const stepAt = (log: TouchLog, position: number): Step | undefined => {
  const offset = position - log.start
  return log.chunks[Math.floor(offset / CHUNK)]?.[offset % CHUNK]
}

/**
 * The steps after `earlier` up to `later`, or undefined when `later` does not descend from `earlier`
 * (another line: a reorg, another start) or no longer holds the steps between them.
 */
export const stepsBetween = (earlier: TouchLog, later: TouchLog): ReadonlyArray<Step> | undefined => {
  if (earlier.origin !== later.origin || earlier.end > later.end || earlier.end <= later.start) {
    return earlier.origin === later.origin && earlier.end === 0 && later.start === 0 ? range(later, 0) : undefined
  }
  // The same record at `earlier`'s last step: a line that forked after it made its own records.
  if (stepAt(earlier, earlier.end - 1) !== stepAt(later, earlier.end - 1)) return undefined
  return range(later, earlier.end)
}

const range = (log: TouchLog, from: number): ReadonlyArray<Step> => {
  const steps: Array<Step> = []
  for (let position = from; position < log.end; position++) steps.push(stepAt(log, position)!)
  return steps
}
