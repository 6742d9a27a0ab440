/**
 * HTTP endpoints and groups derived from operation declarations: method, path, payload, success and
 * the operation's own errors (each with its status and envelope from the error table), and the summary
 * the OpenAPI document shows.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { errorTable } from "../../schema/ErrorTable.js"
import type { AnyOperation, Operation } from "../operations/Operation.js"
import { httpError } from "./ErrorSchemas.js"

export type EndpointOf<Op> = Op extends Operation<infer Name, infer Method, infer I, infer A, infer E, any>
  ? HttpApiEndpoint.HttpApiEndpoint<Name, Method, never, never, [I] extends [void] ? never : I, never, A, E>
  : never

export const endpointOf = <Op extends AnyOperation>(op: Op): EndpointOf<Op> => {
  // Each step changes the endpoint's type (payload, error union); built step by step from data, the
  // result's type is stated by `EndpointOf` instead.
  let endpoint: any = HttpApiEndpoint.make(op.method)(op.name, op.path).addSuccess(op.response)
  if (op.request !== undefined) endpoint = endpoint.setPayload(op.request)
  for (const error of op.errors) endpoint = endpoint.addError(httpError(error as never))
  if (op.refusal !== undefined) {
    endpoint = endpoint.addError(op.refusal.schema, { status: errorTable[op.refusal.error._tag].status })
  }
  return endpoint.annotate(OpenApi.Summary, op.summary) as EndpointOf<Op>
}

/** One `HttpApiGroup` holding the endpoints of `operations`, typed endpoint by endpoint. */
export const groupOf = <const Id extends string, const Ops extends ReadonlyArray<AnyOperation>>(
  id: Id,
  operations: Ops
): HttpApiGroup.HttpApiGroup<Id, EndpointOf<Ops[number]>> =>
  operations.reduce<HttpApiGroup.HttpApiGroup.Any>(
    (group, op) => (group as HttpApiGroup.HttpApiGroup<Id>).add(endpointOf(op)),
    HttpApiGroup.make(id)
  ) as HttpApiGroup.HttpApiGroup<Id, EndpointOf<Ops[number]>>
