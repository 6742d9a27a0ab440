/**
 * Sell-back verdicts per second: `SafetyCheck.check` uncached (a new size every call), one at a time and
 * four in flight, over the seeded tokens' best USDC→token paths. A verdict is one `eth_simulateV1` round
 * trip (buy and sell-back) plus, run alongside, a buy at 10× the size probing for a cap; the simulations
 * are counted at the `Simulator` boundary.
 */
import { Clock, Effect, Layer } from "effect"
import { Simulator } from "../../../../layers/Simulator.js"
import { marketFromIndex } from "../../../../src/routing/Market.js"
import { SafetyCheck } from "../../../../src/safety/check/SafetyCheck.js"
import { probePaths } from "../probePaths.js"
import { figure } from "../report.js"
import { random } from "../synthetic.js"
import type { QuoteBench } from "./context.js"

const LABELS = ["DEGEN", "ORBIT", "TAX", "HONEY", "THIN", "ZAP", "BLOOM", "LAUNCH_GRAD"]
const CHECKS = 400
const E6 = 10n ** 6n

export const safetyRate = async ({ runtime, state, token, manifest }: QuoteBench) => {
  let simulations = 0
  const counted = Layer.effect(
    Simulator,
    Effect.map(Simulator.make, (inner) => ({
      ...inner,
      simulate: (request: Parameters<typeof inner.simulate>[0]) => {
        simulations++
        return inner.simulate(request)
      }
    }))
  )
  const market = marketFromIndex(state)
  const pathTo = probePaths(market, manifest)
  const targets = LABELS.map((label) => ({ token: token(label), path: pathTo(token(label)) }))
  const pick = random(11)
  const requests = Array.from({ length: CHECKS }, (_, i) => ({
    ...targets[i % targets.length]!,
    amountInUsdc: BigInt(1 + Math.floor(pick() * 500)) * E6 + BigInt(Math.floor(pick() * 1e6)),
    block: BigInt(state.block),
    pools: market.pool
  }))

  const measure = (concurrency: number, batch: typeof requests) =>
    Effect.gen(function*() {
      const check = yield* SafetyCheck
      const before = simulations
      const started = yield* Clock.currentTimeMillis
      yield* Effect.forEach(batch, (request) => check.check(request), { concurrency, discard: true })
      const seconds = ((yield* Clock.currentTimeMillis) - started) / 1_000
      return { verdicts: batch.length / seconds, simulations: (simulations - before) / seconds }
    })

  // Each pass its own cache, so no verdict is served from an earlier pass.
  const pass = (concurrency: number, batch: typeof requests) =>
    runtime.runPromise(
      measure(concurrency, batch).pipe(
        Effect.provide(SafetyCheck.DefaultWithoutDependencies.pipe(Layer.provide(counted)))
      )
    )

  await pass(2, requests.slice(0, 16)) // warm-up
  for (const concurrency of [1, 4]) {
    const rate = await pass(concurrency, requests)
    figure(
      `uncached verdicts, ${concurrency} in flight (${CHECKS}, 8 tokens)`,
      `${rate.verdicts.toFixed(0)} verdicts/s, ${rate.simulations.toFixed(0)} eth_simulateV1/s`
    )
  }
}
