/**
 * Which head observation wins. Observations race: a poll sent before a block was pushed can answer
 * after the push with the older head. A higher head, or another block at the same height, always
 * replaces the current one; a lower head only when it answers a read sent after the current head was
 * seen (the chain really got shorter, as after a reorg to a shorter branch). Seeing the same head again
 * renews `at`: an index that has it is current as of then.
 */
import type { Header } from "./ChainSource.js"

export type HeadSource = "pushed" | "polled" | "asked"

/** The newest head observed, when (ms), and how. */
export interface ObservedHead {
  readonly header: Header
  readonly at: number
  readonly source: HeadSource
}

/** The last head poll: when (ms), whether the chain answered, how fast. */
export interface Probe {
  readonly at: number
  readonly ok: boolean
  readonly latencyMs: number | null
  /** The head the poll saw; on a failed poll, the last one seen. */
  readonly block: number | null
  readonly error: string | null
}

export const nextObserved = (
  current: ObservedHead | undefined,
  seen: ObservedHead,
  sentAt: number
): ObservedHead => {
  if (current === undefined) return seen
  const { hash, number } = seen.header
  if (number > current.header.number) return seen
  if (hash === current.header.hash) return { ...current, at: seen.at }
  if (number === current.header.number || sentAt > current.at) return seen
  return current
}
