/**
 * A transport for `@x402/fetch` that times the legs of each paid call as an agent sees them: its first
 * request (answered 402), the client's own work until the paid retry (read the offer, sign, encode),
 * and that retry (headers received; the body is read by the caller, as for every call). Timing adds
 * nothing the agent would not see; the client's code stays the package's own.
 */
import { latency } from "./report.js"

export const x402Legs = () => {
  const legs = { offer: [] as Array<number>, client: [] as Array<number>, retry: [] as Array<number> }
  let mark = 0
  const transport: typeof fetch = async (input, init) => {
    const asked = performance.now()
    const first = legs.offer.length === legs.retry.length
    if (!first) legs.client.push(asked - mark)
    const answer = await fetch(input, init)
    mark = performance.now()
    ;(first ? legs.offer : legs.retry).push(mark - asked)
    return answer
  }
  return {
    transport,
    /** Forgets the legs timed so far (the warm-up's). */
    reset: () => Object.values(legs).forEach((leg) => (leg.length = 0)),
    report: () => {
      latency("  first request, answered 402", legs.offer)
      latency("  client: read the offer, sign, encode", legs.client)
      latency("  paid retry, answered 200", legs.retry)
    }
  }
}
