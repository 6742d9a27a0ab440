/**
 * The one way an operation is served over HTTP: read the body within the size limit and decode it with
 * the request schema (`schema/Decode.ts` via ./RequestBody.ts), run the operation, encode its answer
 * with the response schema. Every endpoint goes through here, so the payment gate wraps exactly here:
 * between the decoded request (it prices with `priceOf(op.cost, input)` and never charges for a bad
 * body) and the run (it settles only after the answer encoded).
 */
import { HttpServerResponse } from "@effect/platform"
import { Effect, Schema } from "effect"
import type { TradeError } from "../../schema/Errors.js"
import type { Operation } from "../operations/Operation.js"
import { errorResponse } from "./ErrorResponse.js"
import { readJsonBody } from "./RequestBody.js"

export const serveOperation = <Name extends string, I, A, E extends TradeError, R>(
  op: Operation<Name, any, I, A, E, R>
) => {
  const encode = Schema.encode(op.response)
  const decode = op.request === undefined ? Effect.void as Effect.Effect<I> : readJsonBody(op.request)
  return Effect.gen(function*() {
    const input = yield* decode
    const answer = yield* op.run(input)
    // An answer that fails its own schema is a defect of ours: the edge reports it as `internal`.
    const body = yield* Effect.orDie(encode(answer))
    const refused = op.refusal?.of(answer)
    if (refused !== undefined) return errorResponse(refused, body as object)
    return yield* Effect.orDie(HttpServerResponse.json(body))
  })
}
