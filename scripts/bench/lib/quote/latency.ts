/**
 * Quote latency, in-process: the whole `quote` operation as the HTTP handler runs it. Warm: the same
 * order again at the same block (its sell-back verdict is cached). Cold: a new size every call, so the
 * fresh-wallet simulation runs each time; twice, interleaved, with the sell-back horizons (the
 * service's default) and without (`SAFETY_HORIZONS=false`).
 */
import { type Context, Effect, Layer, Schema } from "effect"
import { AppConfig } from "../../../../layers/AppConfig.js"
import { QuoteRequest } from "../../../../schema/QuoteRequest.js"
import { quote } from "../../../../src/quote/Quote.js"
import { SafetyCheck } from "../../../../src/safety/check/SafetyCheck.js"
import { OwnerPowers } from "../../../../src/safety/powers/OwnerPowers.js"
import { latency } from "../report.js"
import type { QuoteBench } from "./context.js"

const WARM = 1_000
const COLD = 100

export const quoteLatency = async ({ ask, runtime, token }: QuoteBench) => {
  const time = async (amount: string) => {
    const started = performance.now()
    await ask({ sell: token("USDC"), buy: token("WETH"), amount })
    return performance.now() - started
  }
  /** A quote's time with one of its services replaced. */
  const timeWith = <I, S>(tag: Context.Tag<I, S>, service: S) => async (amount: string) => {
    const started = performance.now()
    await runtime.runPromise(
      Schema.decodeUnknown(QuoteRequest)({ sell: token("USDC"), buy: token("WETH"), amount }).pipe(
        Effect.orDie,
        Effect.flatMap(quote),
        Effect.provideService(tag, service)
      )
    )
    return performance.now() - started
  }
  for (let i = 0; i < 100; i++) await time("2500") // JIT warm-up
  const warm: Array<number> = []
  for (let i = 0; i < WARM; i++) warm.push(await time("2500"))
  latency("quote USDC→WETH $2,500, warm (verdict cached)", warm)

  const withoutHorizons = await runtime.runPromise(Effect.gen(function*() {
    const config = yield* AppConfig
    const settings = Layer.succeed(
      AppConfig,
      AppConfig.make({ ...config, safety: { ...config.safety, horizons: false } })
    )
    return yield* Effect.provide(SafetyCheck, SafetyCheck.DefaultWithoutDependencies.pipe(Layer.provide(settings)))
  }))
  const timeWithout = timeWith(SafetyCheck, withoutHorizons)
  // The owner-power scan (src/safety/powers/) left out: what it adds to a quote once the token's scan is cached.
  const withoutPowers = await runtime.runPromise(
    Effect.provide(
      SafetyCheck,
      SafetyCheck.DefaultWithoutDependencies.pipe(
        Layer.provide(
          Layer.succeed(OwnerPowers, OwnerPowers.make({ of: () => Effect.succeed({ flags: [], powers: [] }) }))
        )
      )
    )
  )
  const timeWithoutPowers = timeWith(SafetyCheck, withoutPowers)
  const cold: Array<number> = []
  const coldWithout: Array<number> = []
  const coldWithoutPowers: Array<number> = []
  for (let i = 0; i < COLD; i++) {
    cold.push(await time(`${2_500 + i + 1}.25`))
    coldWithout.push(await timeWithout(`${3_500 + i + 1}.25`))
    coldWithoutPowers.push(await timeWithoutPowers(`${4_500 + i + 1}.25`))
  }
  latency("quote USDC→WETH, cold (new size: fresh simulation)", cold)
  latency("… the same without the horizons (before)", coldWithout)
  latency("… the same without the owner-power scan (before)", coldWithoutPowers)
}
