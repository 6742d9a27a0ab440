/**
 * A cache kept by a string id whose lookup needs a request beside the id: the pools and the index state
 * of a block, a route's callers. The request is handed to the lookup and dropped from the key, which the
 * cache keeps for the entry's life: a request reaches the whole index state of its block, and verdicts
 * kept for 10 minutes with their requests held as many blocks' states alive (docs/performance.md, the
 * 15-minute soak). Concurrent gets of one id share one lookup, as `Cache` does.
 */
import { Cache, type Duration, Effect, Equal, Hash } from "effect"

class Asked<Q> implements Equal.Equal {
  constructor(readonly id: string, public request: Q | undefined) {}
  // Only the id decides equality: the request rides along for the lookup.
  [Equal.symbol](that: Equal.Equal): boolean {
    return that instanceof Asked && that.id === this.id
  }
  [Hash.symbol](): number {
    return Hash.string(this.id)
  }
}

export const requestCache = <Q, A, E, R>(options: {
  readonly capacity: number
  readonly timeToLive: Duration.DurationInput
  readonly lookup: (request: Q) => Effect.Effect<A, E, R>
}) =>
  Effect.map(
    Cache.make({
      capacity: options.capacity,
      timeToLive: options.timeToLive,
      lookup: (asked: Asked<Q>) => {
        const request = asked.request!
        asked.request = undefined
        return options.lookup(request)
      }
    }),
    (cache) => ({
      get: (id: string, request: Q): Effect.Effect<A, E> => cache.get(new Asked(id, request)),
      invalidate: (id: string) => cache.invalidate(new Asked<Q>(id, undefined))
    })
  )
