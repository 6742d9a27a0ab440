/**
 * The scan's waiting list: a token at most once, newest first, bounded. Tokens never measured go
 * before re-measurements (a new listing should not wait behind a busy pool's tokens); within each
 * kind the most recently changed goes first. Past the capacity the oldest waiting re-measurement is
 * dropped (the oldest new token only when nothing else waits): its next pool change brings it back.
 */
export interface Pending<K> {
  readonly push: (key: K, fresh: boolean) => void
  /** The next token to measure, or undefined when none waits. */
  readonly pop: () => K | undefined
  readonly size: () => number
}

export const makePending = <K>(capacity: number): Pending<K> => {
  // Insertion order is age: a re-pushed key moves to the end (newest).
  const waiting = new Map<K, boolean>()
  const take = (fresh: boolean) => {
    let found: K | undefined
    for (const [key, isFresh] of waiting) if (isFresh === fresh) found = key
    if (found !== undefined) waiting.delete(found)
    return found
  }
  return {
    push: (key, fresh) => {
      const wasFresh = waiting.get(key) ?? false
      waiting.delete(key)
      waiting.set(key, fresh || wasFresh)
      if (waiting.size <= Math.max(1, capacity)) return
      let dropped: K | undefined
      for (const [key, isFresh] of waiting) {
        if (!isFresh) {
          dropped = key
          break
        }
      }
      waiting.delete(dropped ?? (waiting.keys().next().value as K))
    },
    pop: () => take(true) ?? take(false),
    size: () => waiting.size
  }
}
