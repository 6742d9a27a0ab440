/**
 * The operations the edge (./Edge.ts) serves itself, by method and path: a request goes straight to
 * the interpreter (./Serve.ts), a JSON body decoded once, by the edge, as MCP arguments are. HttpApi's
 * router and handler would reach the same interpreter, but first copy the fiber's service context
 * three more times and decode the body again: more than a health check or an unpaid call costs
 * otherwise. HttpApi stays the contract and routes the rest (`HEAD`, the documents, MCP, the image,
 * unknown paths and methods).
 */
import type { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Context, Effect, Tracer } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import type { PaymentGate } from "../../layers/PaymentGate.js"
import { decodeRequest } from "../../schema/Decode.js"
import type { InvalidRequest } from "../../schema/Errors.js"
import type { CostContext } from "../operations/Cost.js"
import type { Operation, ServedOperation } from "../operations/Declare.js"
import { operations } from "../operations/table.js"
import { servingOf } from "./Serve.js"

export type OperationServices = Operation.Context<(typeof operations)[number]> | PaymentGate | CostContext | AppConfig

/** How the edge serves one operation: its body's decoder (a `POST`'s), and the call itself. */
export interface Dispatch {
  readonly decode: ((body: unknown) => Effect.Effect<unknown, InvalidRequest>) | undefined
  readonly serve: (
    request: HttpServerRequest.HttpServerRequest,
    input: unknown
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse>
}

/** The operation served under `method` and `path`, if any. */
export type DispatchOf = (method: string, path: string) => Dispatch | undefined

const routeKey = (method: string, path: string) => `${method} ${path}`

/**
 * How `op` is served: as under HttpApi, with `services` (what the edge was built with) and the request's
 * span, interruptible when the client goes away, its route named on that span. Nothing else of the
 * request's context is carried over (the operation is handed the request itself), so a request without
 * a span (health) runs on `services` as they are, with no copy of them.
 */
const dispatchFor = (
  op: ServedOperation<OperationServices>,
  services: Context.Context<OperationServices>
): Dispatch => {
  const serve = servingOf(op, Context.get(services, AppConfig))
  return {
    decode: op.method === "POST" ? decodeRequest(op.request) : undefined,
    serve: (request, input) =>
      Effect.interruptible(Effect.contextWithEffect((own: Context.Context<never>) => {
        const span = Context.getOrElse(own, Tracer.ParentSpan, () => undefined)
        if (span?._tag === "Span") span.attribute("http.route", op.path)
        const context = span === undefined ? services : Context.add(services, Tracer.ParentSpan, span)
        // The context replaces the request's, not merged into it (`Effect.provide` would copy both maps).
        return Effect.mapInputContext(serve(input, request), () => context)
      }))
  }
}

/** Each operation under `METHOD path`. */
export const dispatchTable = Effect.map(Effect.context<OperationServices>(), (services) => {
  const table = new Map<string, Dispatch>()
  for (const op of operations) table.set(routeKey(op.method, op.path), dispatchFor(op, services))
  const dispatchOf: DispatchOf = (method, path) => table.get(routeKey(method, path))
  return dispatchOf
})
