/**
 * The one boundary to the chain. No other module creates a viem transport: everything that talks
 * JSON-RPC goes through this service, which turns transport failures into `RpcUnavailable`, and
 * decodes the answers the service reads (`read`) against their schema, a malformed answer being the
 * node failing too.
 */
import { Context, Effect, Layer, Option, Schedule, Schema, type Stream } from "effect"
import {
  type Account,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  type PublicClient,
  type Transport,
  type WalletClient
} from "viem"
import { RpcUnavailable } from "../schema/Errors.js"
import { AppConfig } from "./AppConfig.js"
import { large, oversized, oversizedHint, RESPONSE_CAP_BYTES, transient } from "./chain/CallFaults.js"
import { type NewHead, newHeadsOf } from "./chain/NewHeads.js"
import { type SocketCalls, socketCalls } from "./chain/SocketCalls.js"
import { wholeBodyFetch } from "./chain/WholeBody.js"
import { Deployment } from "./Deployment.js"
import { rpcMetered as metered } from "./metrics/Metrics.js"

export interface ChainEndpoint {
  readonly rpcUrl: string
  readonly chainId: number
  /** A websocket endpoint of the same node, for `newHeads` subscriptions (`WS_URL`). */
  readonly wsUrl?: string
}

/** Arc's shape: native USDC is the gas token, 18 decimals in `value`. */
export const arcChain = (endpoint: ChainEndpoint): Chain =>
  defineChain({
    id: endpoint.chainId,
    name: endpoint.chainId === 5042 ? "Arc" : `Arc (${endpoint.chainId})`,
    nativeCurrency: { name: "USDC", symbol: "USDC", decimals: 18 },
    rpcUrls: { default: { http: [endpoint.rpcUrl] } }
  })

/** A transient fault is asked twice more, after 150 and 300 ms (viem's own retries, which these replace). */
const RETRIES = Schedule.intersect(Schedule.exponential("150 millis"), Schedule.recurs(2))

/** How long a read over the websocket waits for its answer before the socket is taken for dead. */
const SOCKET_QUIET_MS = 10_000
/**
 * Websockets kept open for calls on an answer's critical path, each carrying one call at a time
 * (./chain/SocketCalls.ts): a paid call's head read and simulation at once, a settlement's send, and
 * room for another request's read meanwhile.
 */
const SOCKET_LANES = 4

export type ChainClient = PublicClient<Transport, Chain>
export type ChainWallet = WalletClient<Transport, Chain, Account>

export class ChainRpc extends Context.Tag("ChainRpc")<ChainRpc, {
  readonly endpoint: ChainEndpoint
  readonly chain: Chain
  /** Runs one viem action; a failure becomes `RpcUnavailable` labelled with `action`. */
  readonly use: <A>(action: string, run: (client: ChainClient) => Promise<A>) => Effect.Effect<A, RpcUnavailable>
  /**
   * A raw JSON-RPC call, for methods viem has no action for (`eth_simulateV1`, `anvil_*`, `evm_*`), its
   * answer decoded against `schema` (`decodeAnswer`).
   */
  readonly read: <A, I>(
    schema: Schema.Schema<A, I>,
    method: string,
    params?: ReadonlyArray<unknown>
  ) => Effect.Effect<A, RpcUnavailable>
  /**
   * The same, sent at once rather than batched: for calls on an answer's critical path (the head at a
   * request's arrival, a payment's simulation, its settlement's `eth_sendRawTransaction`), where a batch's
   * wait for company would be the larger part of the call. Over an idle websocket to the node when one
   * is open (./chain/SocketCalls.ts), else on its own HTTP connection.
   */
  readonly readNow: <A, I>(
    schema: Schema.Schema<A, I>,
    method: string,
    params?: ReadonlyArray<unknown>
  ) => Effect.Effect<A, RpcUnavailable>
  /** A raw call whose answer is not read by the service (devnet tooling hands it to viem's formatters). */
  readonly request: (method: string, params?: ReadonlyArray<unknown>) => Effect.Effect<unknown, RpcUnavailable>
  /** A signing client for a local account (devnet bootstrap and tooling only: the service never signs trades). */
  readonly wallet: (account: Account) => ChainWallet
  /** New heads as the node pushes them (`eth_subscribe`), when a websocket URL is configured. */
  readonly heads: Option.Option<Stream.Stream<NewHead, RpcUnavailable>>
}>() {
  static readonly make = (endpoint: ChainEndpoint, socket?: SocketCalls): Context.Tag.Service<ChainRpc> => {
    const chain = arcChain(endpoint)
    // Batching lets a burst of small reads (token metadata, pool state, headers without transactions)
    // share HTTP round trips.
    // Retried here rather than by viem, which would fetch an oversized batch three times before any call
    // of it could be sent alone (`alone`).
    const batch = { batchSize: 200, wait: 0 }
    const maxResponseBodySize = RESPONSE_CAP_BYTES
    const transport = http(endpoint.rpcUrl, { batch, retryCount: 0, timeout: 20_000, maxResponseBodySize })
    const client: ChainClient = createPublicClient({ chain, transport, cacheTime: 0, pollingInterval: 250 })
    // Tooling's signing client keeps viem's retries: it sends nothing large.
    const signing = http(endpoint.rpcUrl, { batch, retryCount: 2, timeout: 20_000 })
    // Calls whose answer may run to megabytes go alone, and are not retried: their caller asks for less
    // on a refusal (the indexer splits a range). Calls on an answer's critical path go alone too.
    const unbatched = createPublicClient({
      chain,
      transport: http(endpoint.rpcUrl, {
        retryCount: 0,
        timeout: 30_000,
        maxResponseBodySize,
        fetchFn: wholeBodyFetch(maxResponseBodySize)
      }),
      cacheTime: 0
    })
    const fail = (action: string) => (cause: unknown) =>
      new RpcUnavailable({
        message: `chain RPC failed during ${action}`,
        hint: oversizedHint(cause) ?? (cause instanceof Error ? cause.message.split("\n")[0] : String(cause))
      })
    // One answer over viem's response cap fails every call of its batch alike. Each is sent again on
    // its own: the neighbours answer, and only the call that is itself too large still fails.
    const alone = <A>(action: string, batched: () => Promise<A>, single: () => Promise<A>) =>
      Effect.tryPromise({ try: batched, catch: (cause) => cause }).pipe(
        Effect.retry({ schedule: RETRIES, while: transient }),
        Effect.catchIf(oversized, () => Effect.tryPromise({ try: single, catch: fail(action) })),
        Effect.mapError((cause) => cause instanceof RpcUnavailable ? cause : fail(action)(cause))
      )
    const send = (method: string, params: ReadonlyArray<unknown> = []) => {
      const call = (via: ChainClient) => (): Promise<unknown> =>
        via.request({ method: method as never, params: params as never })
      return metered(
        method,
        large(method, params)
          ? Effect.tryPromise({ try: call(unbatched), catch: fail(method) })
          : alone(method, call(client), call(unbatched))
      )
    }
    return {
      endpoint,
      chain,
      use: (action, run) => metered(action, alone(action, () => run(client), () => run(unbatched))),
      read: (schema, method, params) => Effect.flatMap(send(method, params), decodeAnswer(schema, method)),
      readNow: (schema, method, params = []) => {
        const overHttp = Effect.tryPromise({
          try: () => unbatched.request({ method: method as never, params: params as never }),
          catch: fail(method)
        })
        const sent = socket === undefined ? overHttp : socket.call(method, params, overHttp)
        return Effect.flatMap(sent, decodeAnswer(schema, method))
      },
      request: (method, params) => send(method, params),
      wallet: (account) => createWalletClient({ account, chain, transport: signing }),
      heads: Option.map(Option.fromNullable(endpoint.wsUrl), newHeadsOf)
    }
  }

  static readonly layerFor = (endpoint: ChainEndpoint) => Layer.succeed(ChainRpc, ChainRpc.make(endpoint))

  /** `make`, with `readNow` over a websocket to `endpoint.wsUrl` kept open for the scope, when there is one. */
  static readonly scoped = (endpoint: ChainEndpoint) =>
    endpoint.wsUrl === undefined
      ? Effect.succeed(ChainRpc.make(endpoint))
      : Effect.map(socketCalls(endpoint.wsUrl, SOCKET_QUIET_MS, SOCKET_LANES), (socket) =>
        ChainRpc.make(endpoint, socket))

  /**
   * Points at whatever chain the `Deployment` names, with `newHeads` and reads at arrival over the same
   * node's websocket: `WS_URL`, or by default the RPC URL's own (anvil and most nodes serve both on one
   * port); `WS_URL=off` polls and reads over HTTP only. A node without a websocket costs a failed
   * connection now and then, never an answer.
   */
  static readonly Default = Layer.scoped(
    ChainRpc,
    Effect.gen(function*() {
      const deployment = yield* Deployment
      const { wsUrl } = yield* AppConfig
      const chosen = Option.getOrElse(wsUrl, () => websocketOf(deployment.rpcUrl))
      return yield* ChainRpc.scoped(chosen === "off" ? deployment : { ...deployment, wsUrl: chosen })
    })
  )
}

/**
 * One JSON-RPC answer held to its schema, the one place answers are decoded: a malformed answer (a
 * proxy's error page, a node that words a field otherwise) fails as `RpcUnavailable` naming the method,
 * rather than as a defect wherever the service first read the missing field.
 */
export const decodeAnswer = <A, I>(schema: Schema.Schema<A, I>, method: string) => (answer: unknown) =>
  Schema.decodeUnknown(schema)(answer).pipe(
    Effect.mapError((error) =>
      new RpcUnavailable({
        message: `chain RPC answered ${method} with a malformed result`,
        hint: error.message.replace(/\s+/g, " ").slice(0, 200)
      })
    )
  )

/** The websocket URL of a node that serves both on one port: `http(s)://` becomes `ws(s)://`. */
export const websocketOf = (rpcUrl: string): string => rpcUrl.replace(/^http/i, "ws")
