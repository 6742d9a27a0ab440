/**
 * How a tool call writes the payment gate's own failures, which a real gate cannot be made to produce
 * on demand: `fakeFailingGate` is a fake (test/support/fakes.ts) whose `charge` fails as the gate does when the payment
 * library breaks mid-call (`internal`) or the facilitator is unreachable (`payment_unavailable`).
 */
import { Effect } from "effect"
import { expect, it } from "vitest"
import { AppConfig } from "../../layers/AppConfig.js"
import { Internal, PaymentUnavailable } from "../../schema/Errors.js"
import { callTool } from "../../src/mcp/CallTool.js"
import { makeTools } from "../../src/mcp/Tools.js"
import { fakePaymentGate } from "../support/fakes.js"
import { testSettings } from "../support/services.js"

const fakeFailingGate = (failure: Internal | PaymentUnavailable) =>
  fakePaymentGate({ charge: () => Effect.fail(failure) })

const paidSearch = (failure: Internal | PaymentUnavailable) =>
  Effect.runPromise(
    Effect.gen(function*() {
      const search = (yield* makeTools).find((tool) => tool.name === "tradeSearch")!
      return yield* callTool(search, { query: "WETH" }, { "x402/payment": { x402Version: 2 } })
    }).pipe(
      Effect.provide(fakeFailingGate(failure)),
      Effect.provide(AppConfig.Default),
      Effect.provide(testSettings())
    ) as Effect.Effect<any>
  )

it("the payment library failing mid-call is a text-only error result without next", async () => {
  const result = await paidSearch(new Internal({ message: "the facilitator threw" }))
  expect(result.isError).toBe(true)
  expect(result.structuredContent).toBeUndefined()
  expect(result._meta).toBeUndefined()
  expect(result.content[0].text).toMatch(/payment error: the facilitator threw; nothing was charged/)
})

it("an unreachable facilitator is payment_unavailable with next retry", async () => {
  const result = await paidSearch(new PaymentUnavailable({ message: "the facilitator did not answer" }))
  expect(result.isError).toBe(true)
  expect(result.structuredContent).toMatchObject({
    error: { code: "payment_unavailable" },
    next: "retry",
    retryAfterSec: expect.any(Number)
  })
})
