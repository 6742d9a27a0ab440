/**
 * What an operation is, for every edge that serves it: its name, where HTTP mounts it, its request and
 * response schemas, the errors of its own it can answer with, what a call costs, the Effect that runs
 * it and, when agents call it as an MCP tool, what the tool is for. Each operation is declared once
 * (./table.ts) with `get` or `post`; the interpreter (./Run.ts) runs it for HTTP and MCP alike, and the
 * HTTP endpoint, the OpenAPI document, the payment gate's prices and the MCP tools are derived from
 * the declaration.
 */
import type { HttpApiEndpoint } from "@effect/platform"
import { type Effect, Schema } from "effect"
import type { TradeError } from "../../schema/Errors.js"
import type { Cost } from "./Cost.js"
import { getEndpoint, postEndpoint } from "./Endpoint.js"
import type { ErrorClass } from "./HttpErrors.js"

/** What the interpreter tells a running call: the price it is being charged (0 when free). */
export interface Call {
  /**
   * An operation charged once per resource (`swap`, once per quote) reads it to see that a concurrent
   * call already paid, and refuses rather than be charged twice.
   */
  readonly charged: bigint
}

/** An operation agents call as an MCP tool: what it does and what to do with its answer. */
export interface Tool {
  readonly description: string
}

export type HttpMethod = "GET" | "POST"

/** Answers any operation may give, declared once for the whole API: the edge's and the chain's. */
export type ApiError = Extract<
  TradeError,
  { readonly _tag: "InvalidRequest" | "PayloadTooLarge" | "RpcUnavailable" | "Internal" }
>

/** The arguments of an operation without a request body: none. */
export const NoInput = Schema.Struct({})

/** `E` is the operation's own errors; those of the whole API (`ApiError`) are not listed per operation. */
export interface Operation<
  Name extends string,
  Method extends HttpMethod,
  Req extends Schema.Schema.AnyNoContext,
  Res extends Schema.Schema.AnyNoContext,
  E extends TradeError,
  R
> {
  readonly name: Name
  /** The HTTP API group it is documented under. */
  readonly group: "system" | "trade"
  readonly method: Method
  readonly path: `/${string}`
  /** One line for the OpenAPI document; an MCP tool's description starts from `tool`. */
  readonly summary: string
  /**
   * What it does and what to do with its answer, for the OpenAPI document's readers (the MCP tool's own
   * words, for models, are `tool.description`).
   */
  readonly description: string
  readonly request: Req
  readonly response: Res
  readonly errors: ReadonlyArray<ErrorClass>
  readonly cost: Cost<Schema.Schema.Type<Req>>
  /**
   * What can be checked of a decoded request without running the operation (from the request and the
   * in-memory index): the interpreter runs it before asking for payment (./Run.ts `admit`), so a wrong
   * request is answered with its error unpaid, never after a 402. Absent when there is nothing to check.
   */
  readonly check: ((input: Schema.Schema.Type<Req>) => Effect.Effect<void, E | ApiError, R>) | undefined
  readonly run: (input: Schema.Schema.Type<Req>, call: Call) => Effect.Effect<Schema.Schema.Type<Res>, E | ApiError, R>
  /**
   * The operation only reads (nothing stored, nothing sent): a paid call may start it while its payment
   * is being verified, and its answer is still withheld until the payment verifies (./Run.ts).
   */
  readonly readOnly?: true
  /**
   * The operation reads no index snapshot (`AtHead`): it reads the chain's head itself (health), so the
   * interpreter sets up no shared arrival for its call (./Run.ts).
   */
  readonly ownHead?: true
  /** Absent for an operation served over HTTP only. */
  readonly tool: Tool | undefined
  /** Its HTTP endpoint, typed by the declaration (./Endpoint.ts). */
  readonly endpoint: HttpApiEndpoint.HttpApiEndpoint.Any
}

/** Any operation of the table whose services are among `R`: the table's operations, one at a time. */
export type ServedOperation<R> = Operation<
  string,
  HttpMethod,
  Schema.Schema.AnyNoContext,
  Schema.Schema.AnyNoContext,
  TradeError,
  R
>

export type AnyOperation = ServedOperation<unknown>

export declare namespace Operation {
  export type Context<Op> = Op extends Operation<string, HttpMethod, infer _Req, infer _Res, infer _E, infer R> ? R
    : never
}

interface Spec<
  Name extends string,
  I,
  Res extends Schema.Schema.AnyNoContext,
  Errors extends ReadonlyArray<ErrorClass>,
  R
> {
  readonly name: Name
  readonly group: "system" | "trade"
  readonly path: `/${string}`
  readonly summary: string
  readonly description: string
  readonly response: Res
  readonly errors?: Errors
  readonly cost: Cost<I>
  readonly check?: (input: I) => Effect.Effect<void, Errors[number]["Type"] | ApiError, R>
  readonly run: (input: I, call: Call) => Effect.Effect<Schema.Schema.Type<Res>, Errors[number]["Type"] | ApiError, R>
  readonly readOnly?: true
  readonly ownHead?: true
  readonly tool?: Tool
}

/** An operation without a request body, mounted as `GET`. */
export const get = <
  const Name extends string,
  Res extends Schema.Schema.AnyNoContext,
  R,
  const Errors extends ReadonlyArray<ErrorClass> = []
>(spec: Spec<Name, typeof NoInput.Type, Res, Errors, R>) => {
  const declared = {
    ...spec,
    method: "GET" as const,
    request: NoInput,
    errors: spec.errors ?? [],
    check: spec.check,
    tool: spec.tool
  }
  return { ...declared, endpoint: getEndpoint(declared) } satisfies Operation<
    Name,
    "GET",
    typeof NoInput,
    Res,
    Errors[number]["Type"],
    R
  >
}

/** An operation with a JSON request body, mounted as `POST`. */
export const post = <
  const Name extends string,
  Req extends Schema.Schema.AnyNoContext,
  Res extends Schema.Schema.AnyNoContext,
  R,
  const Errors extends ReadonlyArray<ErrorClass> = []
>(spec: Spec<Name, Schema.Schema.Type<Req>, Res, Errors, R> & { readonly request: Req }) => {
  const declared = { ...spec, method: "POST" as const, errors: spec.errors ?? [], check: spec.check, tool: spec.tool }
  return { ...declared, endpoint: postEndpoint(declared, spec.request) } satisfies Operation<
    Name,
    "POST",
    Req,
    Res,
    Errors[number]["Type"],
    R
  >
}
