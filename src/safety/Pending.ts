/**
 * The scan's waiting list: a token at most once, bounded, taken most urgent first. Tokens an agent
 * asked about (a search that found them without a verdict, a quote) go first, newest ask first: someone
 * is waiting on them. Then tokens never measured, then re-measurements; within each, the most liquid
 * first (where a verdict matters to the most money), the most recently pushed on a tie. Past the
 * capacity the least urgent waiting token is dropped: its next pool change or ask brings it back.
 *
 * A linear pass per take: tokens wait by the thousand at most while verdicts are taken a few dozen a
 * second, which is cheaper than keeping an order on every push of a busy block.
 */
export const Urgency = { remeasure: 0, fresh: 1, asked: 2 } as const
export type Urgency = typeof Urgency[keyof typeof Urgency]

export interface Pending<K> {
  /** `weight` orders tokens of one urgency (liquidity, in USDC micro-units); a token pushed again keeps the higher urgency. */
  readonly push: (key: K, urgency: Urgency, weight?: bigint) => void
  /** The next token to measure, or undefined when none waits. */
  readonly pop: () => K | undefined
  readonly size: () => number
}

interface Waiting {
  readonly urgency: Urgency
  readonly weight: bigint
  readonly seq: number
}

/** Whether `a` goes before `b`. */
const before = (a: Waiting, b: Waiting): boolean => {
  if (a.urgency !== b.urgency) return a.urgency > b.urgency
  if (a.urgency !== Urgency.asked && a.weight !== b.weight) return a.weight > b.weight
  return a.seq > b.seq
}

export const makePending = <K>(capacity: number): Pending<K> => {
  const waiting = new Map<K, Waiting>()
  let seq = 0
  const extreme = (first: boolean): K | undefined => {
    let found: K | undefined
    let best: Waiting | undefined
    for (const [key, entry] of waiting) {
      if (best === undefined || before(entry, best) === first) {
        found = key
        best = entry
      }
    }
    return found
  }
  return {
    push: (key, urgency, weight = 0n) => {
      const known = waiting.get(key)
      waiting.set(key, {
        urgency: known !== undefined && known.urgency > urgency ? known.urgency : urgency,
        weight,
        seq: seq++
      })
      if (waiting.size > Math.max(1, capacity)) waiting.delete(extreme(false)!)
    },
    pop: () => {
      const key = extreme(true)
      if (key !== undefined) waiting.delete(key)
      return key
    },
    size: () => waiting.size
  }
}
