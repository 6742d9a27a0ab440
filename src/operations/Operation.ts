/**
 * What an operation is, for every edge that serves it: its name, where HTTP mounts it, its request and
 * response schemas, the errors of its own it can answer with, what a call costs, and the Effect that
 * runs it. Each operation is declared once (./table.ts); HTTP routes, the OpenAPI document, the payment
 * gate's prices (src/http/) and the MCP tools (src/mcp/) are derived from the declaration.
 */
import { Effect, FiberRef, Option, type Schema } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import type { QuoteStore } from "../../layers/QuoteStore.js"
import type { TradeError } from "../../schema/Errors.js"

/**
 * What a call costs the caller, in USDC base units (6 decimals): nothing; the same configured price
 * for every call; or a price computed from the decoded request (a swap's fee by order size). A
 * payment gate asks `priceOf` after decoding and before running, so it never charges for a bad request.
 */
export type Cost<I> =
  | { readonly kind: "free" }
  | { readonly kind: "fixed"; readonly price: Effect.Effect<bigint, never, AppConfig> }
  | {
    readonly kind: "fromInput"
    readonly price: (input: I) => Effect.Effect<bigint, TradeError, CostContext>
    /** The pricing rule in words, for the OpenAPI document and the MCP tool description. */
    readonly rule: string
  }

/** What a price may read: the configured prices, and stored quotes (a swap is priced from its quote). */
export type CostContext = AppConfig | QuoteStore

export const Cost = {
  free: { kind: "free" } as Cost<unknown>,
  /** A price from the configured price list (`PRICE_*`). */
  fixed: (pick: (prices: AppConfig["prices"]) => bigint): Cost<unknown> => ({
    kind: "fixed",
    price: Effect.map(AppConfig, (config) => pick(config.prices))
  }),
  fromInput: <I>(price: (input: I) => Effect.Effect<bigint, TradeError, CostContext>, rule: string): Cost<I> => ({
    kind: "fromInput",
    price,
    rule
  })
}

/** The price of one call with `input`; none when the operation is free. */
export const priceOf = <I>(cost: Cost<I>, input: I): Effect.Effect<Option.Option<bigint>, TradeError, CostContext> => {
  switch (cost.kind) {
    case "free":
      return Effect.succeedNone
    case "fixed":
      return Effect.asSome(cost.price)
    case "fromInput":
      return Effect.asSome(cost.price(input))
  }
}

/**
 * The price the running call is being charged, in USDC base units (0 when free). The edges set it around
 * `run` once the gate has verified the payment, so an operation charged once per resource (`swap`, once
 * per quote) can see that a concurrent call already paid, and refuse rather than be charged twice.
 */
export const CallCharge = FiberRef.unsafeMake(0n)

/** Runs `effect` as a call charged `price`. */
export const chargedAt = (price: bigint) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.locally(effect, CallCharge, price)

/**
 * An answer that is also a refusal: the operation answered, but what it says is that the service cannot
 * serve now (health while `down`). Edges serve the answer's fields beside the error's envelope, with the
 * error's status; `schema` documents that body.
 */
export interface Refusal<A> {
  readonly error: ErrorClass
  readonly schema: Schema.Schema<any, any>
  readonly of: (answer: A) => TradeError | undefined
}

/** An error class of the contract (`schema/Errors.ts`), as an operation lists the errors of its own. */
export type ErrorClass = Schema.Schema.Any & { readonly Type: TradeError; readonly _tag: TradeError["_tag"] }

export type HttpMethod = "GET" | "POST"

/** `I` is `void` for an operation without a request body. `E` its own errors: those the whole API can answer with (bad body, chain down, internal) are not listed per operation. */
export interface Operation<
  Name extends string,
  Method extends HttpMethod,
  I,
  A,
  E extends TradeError,
  R
> {
  readonly name: Name
  /** The HTTP API group it is documented under. */
  readonly group: "system" | "trade"
  readonly method: Method
  readonly path: `/${string}`
  /** One line for the OpenAPI document and the MCP tool list. */
  readonly summary: string
  /** What it does and what to do with its answer, for the OpenAPI document's readers. */
  readonly description: string
  readonly request: Schema.Schema<I, any> | undefined
  readonly response: Schema.Schema<A, any>
  readonly errors: ReadonlyArray<ErrorClass>
  readonly cost: Cost<I>
  /**
   * What can be checked of a decoded request without running the operation (from the request and the
   * in-memory index): edges run it before asking for payment (`admit`), so a wrong request is answered
   * with its error unpaid, never after a 402.
   */
  readonly check?: (input: I) => Effect.Effect<void, E | ApiError, R>
  readonly run: (input: I) => Effect.Effect<A, E | ApiError, R>
  readonly refusal?: Refusal<A>
}

/**
 * What an edge does with a decoded request before anything is charged: the operation's `check`, then
 * its price (none when free). A failure here is answered as it is, and costs nothing.
 */
export const admit = <I, E extends TradeError, R>(
  op: Pick<Operation<string, HttpMethod, I, unknown, E, R>, "check" | "cost">,
  input: I
): Effect.Effect<Option.Option<bigint>, E | ApiError | TradeError, R | CostContext> =>
  op.check === undefined ? priceOf(op.cost, input) : Effect.zipRight(op.check(input), priceOf(op.cost, input))

/** Answers any operation may give, declared once for the whole API: the edge's and the chain's. */
export type ApiError = Extract<
  TradeError,
  { readonly _tag: "InvalidRequest" | "PayloadTooLarge" | "RpcUnavailable" | "Internal" }
>

export type AnyOperation = Operation<string, HttpMethod, any, any, any, any>

export declare namespace Operation {
  export type Name<Op> = Op extends Operation<infer N, any, any, any, any, any> ? N : never
  export type Context<Op> = Op extends Operation<any, any, any, any, any, infer R> ? R : never
}

type Spec<Name extends string, I, A, Errors extends ReadonlyArray<ErrorClass>, R> = {
  readonly name: Name
  readonly group: "system" | "trade"
  readonly path: `/${string}`
  readonly summary: string
  readonly description: string
  readonly response: Schema.Schema<A, any>
  readonly errors?: Errors
  readonly cost: Cost<I>
  readonly check?: (input: I) => Effect.Effect<void, Errors[number]["Type"] | ApiError, R>
  readonly run: (input: I) => Effect.Effect<A, Errors[number]["Type"] | ApiError, R>
  readonly refusal?: Refusal<A>
}

/** An operation without a request body, mounted as `GET`. */
export const get = <const Name extends string, A, R, const Errors extends ReadonlyArray<ErrorClass> = []>(
  spec: Spec<Name, void, A, Errors, R>
): Operation<Name, "GET", void, A, Errors[number]["Type"], R> => ({
  ...spec,
  method: "GET",
  request: undefined,
  errors: spec.errors ?? []
})

/** An operation with a JSON request body, mounted as `POST`. */
export const post = <const Name extends string, I, A, R, const Errors extends ReadonlyArray<ErrorClass> = []>(
  spec: Spec<Name, I, A, Errors, R> & { readonly request: Schema.Schema<I, any> }
): Operation<Name, "POST", I, A, Errors[number]["Type"], R> => ({
  ...spec,
  method: "POST",
  errors: spec.errors ?? []
})
