/**
 * The boundary over `eth_simulateV1`: transactions run in simulated blocks on top of a real block, in
 * one request, with native balances set by state override (a fresh wallet funded without touching any
 * holder). Naive simulation defaults differ from real transactions (gas price 0, base fee 0, coinbase
 * 0, the whole block's gas, the parent's number and time), and tokens read exactly those to behave
 * differently when simulated. Here calls are validated like real transactions (nonce, balance, fee)
 * and carry a real-looking gas price and gas limit; every simulated block has a later number and time
 * (the next, unless the request spaces blocks further apart), a non-zero base fee and a non-zero coinbase.
 *
 * Two lanes: a request's simulations (a quote's verdict, a swap's check) go to the node at once, on a
 * connection of their own (`ChainRpc.readNow`); the background scan's (`Simulator.inBackground`) wait
 * while any request's is waiting for its answer, and at most `BACKGROUND_IN_FLIGHT` of them are at the
 * node at a time. A node answers what it was sent in turn, so a request's simulation then waits behind
 * at most that many of the scan's, never behind its whole backlog (at 10,000 new tokens, thousands).
 * A scan that builds a large request (the owner-power probe's code and encoded trials) builds it inside
 * `inTurn`, once it holds a turn, so that the request is not held while it waits in the lane
 * (docs/performance.md, "The service's RSS held flat").
 */
import { Context, Effect, FiberRef, Layer, Schema } from "effect"
import type { Address, Hex } from "viem"
import { RpcHex } from "../schema/Chain.js"
import { RpcUnavailable } from "../schema/Errors.js"
import { ChainRpc } from "./ChainRpc.js"

export interface SimCall {
  readonly from: Address
  readonly to: Address
  readonly data: Hex
  readonly value?: bigint
  /** Gas limit of the transaction; default 3,000,000 (a real transaction never has the block's). */
  readonly gas?: bigint
}

export interface SimLog {
  readonly address: Address
  readonly topics: ReadonlyArray<Hex>
  readonly data: Hex
}

export interface SimResult {
  readonly ok: boolean
  readonly returnData: Hex
  readonly logs: ReadonlyArray<SimLog>
  readonly gasUsed: bigint
  /** The node's message when the call reverted or failed. */
  readonly error: string | undefined
}

export interface SimulationRequest {
  /** The real block the simulation builds on. */
  readonly block: bigint
  /** One entry per simulated block (block+1, block+2, …), each a list of transactions in order. */
  readonly blocks: ReadonlyArray<ReadonlyArray<SimCall>>
  /**
   * How far each simulated block is from the one before it (the first: from `block`), by index;
   * default one block and one second. A wait of hours is a jump in number and time: nodes that do
   * not fill the gap with empty blocks (anvil, reth) simulate it at the cost of one block.
   */
  readonly spacing?: ReadonlyArray<BlockSpacing | undefined>
  /** Native balances (wei) set before the first block. */
  readonly balances?: ReadonlyArray<{ readonly address: Address; readonly wei: bigint }>
  /** Code placed at an address before the first block (a probe standing in for an account). */
  readonly code?: ReadonlyArray<{ readonly address: Address; readonly code: Hex }>
}

/** The first block's state overrides: balances and code, merged per address. */
const overridesOf = (request: SimulationRequest) => {
  const overrides: Record<string, { balance?: Hex; code?: Hex }> = {}
  for (const { address, wei } of request.balances ?? []) overrides[address] = { balance: hex(wei) }
  for (const { address, code } of request.code ?? []) overrides[address] = { ...overrides[address], code }
  return overrides
}

export interface BlockSpacing {
  readonly blocks: bigint
  readonly seconds: bigint
}

const ONE_BLOCK: BlockSpacing = { blocks: 1n, seconds: 1n }

/** Number and time of each simulated block, from the real block's and the spacing asked for. */
const positions = (number: bigint, timestamp: bigint, count: number, spacing: SimulationRequest["spacing"]) => {
  let at = { number, timestamp }
  return Array.from({ length: count }, (_, i) => {
    const step = spacing?.[i] ?? ONE_BLOCK
    at = { number: at.number + step.blocks, timestamp: at.timestamp + step.seconds }
    return at
  })
}

/** Results per simulated block, per transaction. */
export type SimulationResult = ReadonlyArray<ReadonlyArray<SimResult>>

const RpcSimLog = Schema.Struct({ address: RpcHex, topics: Schema.Array(RpcHex), data: RpcHex })

/** `eth_simulateV1`'s answer: per block, per call. */
const RpcSimulated = Schema.Array(Schema.Struct({
  calls: Schema.Array(Schema.Struct({
    status: RpcHex,
    returnData: RpcHex,
    gasUsed: RpcHex,
    logs: Schema.optional(Schema.NullOr(Schema.Array(RpcSimLog))),
    error: Schema.optional(Schema.NullOr(Schema.Struct({ message: Schema.optional(Schema.String) })))
  }))
}))

const RpcHeader = Schema.Struct({
  number: RpcHex,
  timestamp: RpcHex,
  baseFeePerGas: Schema.optional(Schema.NullOr(RpcHex)),
  miner: RpcHex
})
type RpcHeader = typeof RpcHeader.Type

/** The scan's simulations at the node at once: what a request's may find ahead of it there. */
export const BACKGROUND_IN_FLIGHT = 2

/** Set for the fibers of the background scan (`Simulator.inBackground`); read by `simulate`. */
const background = FiberRef.unsafeMake(false)
/** Set while a scan's fiber holds one of the lane's turns (`inTurn`): its reads take no second one. */
const holdingTurn = FiberRef.unsafeMake(false)

const GWEI = 10n ** 9n
export const DEFAULT_GAS = 3_000_000n
/** Stands in for the block producer when the node reports none (anvil's coinbase is zero). */
const STAND_IN_COINBASE: Address = "0x4200000000000000000000000000000000000011"
const hex = (value: bigint): Hex => `0x${value.toString(16)}`

/** Block context of the simulated blocks, from the real block they follow. */
const contextOf = (header: RpcHeader) => {
  const baseFee = BigInt(header.baseFeePerGas ?? "0x0")
  const feeFloor = baseFee > GWEI ? baseFee : GWEI
  return {
    number: BigInt(header.number),
    timestamp: BigInt(header.timestamp),
    baseFee: feeFloor,
    coinbase: BigInt(header.miner) === 0n ? STAND_IN_COINBASE : header.miner,
    // What a wallet would offer: twice the base fee plus a tip, so tx.gasprice = base fee + tip.
    maxFeePerGas: feeFloor * 2n + GWEI,
    tip: GWEI
  }
}

export class Simulator extends Context.Tag("Simulator")<Simulator, {
  readonly simulate: (request: SimulationRequest) => Effect.Effect<SimulationResult, RpcUnavailable>
  /**
   * `build` (a simulation's request built, then simulated) holding one of the scan's turns on the scan's
   * fibers, so the request exists only once it can go; on a request's fibers, `build` as it is.
   */
  readonly inTurn: <A, E, R>(build: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>() {
  static readonly make = Effect.gen(function*() {
    const rpc = yield* ChainRpc
    // Requests' simulations waiting for their answer; the scan's wait on `clear` while there are any.
    let requests = 0
    const clear = yield* Effect.makeLatch(true)
    const scanTurns = yield* Effect.makeSemaphore(BACKGROUND_IN_FLIGHT)
    const asRequest = <A, E>(effect: Effect.Effect<A, E>) =>
      Effect.acquireUseRelease(
        Effect.zipRight(Effect.sync(() => ++requests), clear.close),
        () => effect,
        () => Effect.suspend(() => (--requests === 0 ? clear.open : Effect.void))
      )
    // Each read still waits while a request's is waiting, turn held or not.
    const asScan = <A, E>(effect: Effect.Effect<A, E>) =>
      Effect.flatMap(
        FiberRef.get(holdingTurn),
        (held) =>
          held ? Effect.zipRight(clear.await, effect) : scanTurns.withPermits(1)(Effect.zipRight(clear.await, effect))
      )
    const inTurn = <A, E, R>(build: Effect.Effect<A, E, R>) =>
      Effect.flatMap(
        Effect.all([FiberRef.get(background), FiberRef.get(holdingTurn)]),
        ([scan, held]) =>
          scan && !held
            ? scanTurns.withPermits(1)(Effect.zipRight(clear.await, Effect.locally(build, holdingTurn, true)))
            : build
      )
    const headers = new Map<bigint, RpcHeader>()
    // A request's reads go alone: batched, they could share an HTTP answer with the scan's simulations.
    const read = <A, I>(schema: Schema.Schema<A, I>, method: string, params: ReadonlyArray<unknown>) =>
      Effect.flatMap(
        FiberRef.get(background),
        (scan) => scan ? asScan(rpc.read(schema, method, params)) : asRequest(rpc.readNow(schema, method, params))
      )
    const header = (block: bigint) => {
      const known = headers.get(block)
      if (known !== undefined) return Effect.succeed(known)
      return read(Schema.NullOr(RpcHeader), "eth_getBlockByNumber", [hex(block), false]).pipe(
        Effect.flatMap((found) =>
          found === null
            ? Effect.fail(new RpcUnavailable({ message: `block ${block} is not available for simulation` }))
            : Effect.sync(() => {
              if (headers.size >= 64) headers.delete(headers.keys().next().value!)
              headers.set(block, found)
              return found
            })
        )
      )
    }

    const simulate = Effect.fn("Simulator.simulate")(function*(request: SimulationRequest) {
      const context = contextOf(yield* header(request.block))
      const at = positions(context.number, context.timestamp, request.blocks.length, request.spacing)
      const payload = {
        blockStateCalls: request.blocks.map((calls, i) => ({
          blockOverrides: {
            number: hex(at[i]!.number),
            time: hex(at[i]!.timestamp),
            baseFeePerGas: hex(context.baseFee),
            feeRecipient: context.coinbase,
            gasLimit: hex(30_000_000n)
          },
          ...(i === 0 && (request.balances !== undefined || request.code !== undefined)
            ? { stateOverrides: overridesOf(request) }
            : {}),
          calls: calls.map((call) => ({
            from: call.from,
            to: call.to,
            input: call.data,
            value: hex(call.value ?? 0n),
            gas: hex(call.gas ?? DEFAULT_GAS),
            maxFeePerGas: hex(context.maxFeePerGas),
            maxPriorityFeePerGas: hex(context.tip)
          }))
        })),
        traceTransfers: true,
        // Without validation the node runs calls with BASEFEE 0 whatever the block says (anvil 1.7):
        // a tell. With it, nonces, balances and fees are checked as for a real transaction.
        validation: true
      }
      const blocks = yield* read(RpcSimulated, "eth_simulateV1", [payload, hex(request.block)])
      return blocks.map((block) =>
        block.calls.map((call): SimResult => ({
          ok: BigInt(call.status) === 1n,
          returnData: call.returnData,
          logs: call.logs ?? [],
          gasUsed: BigInt(call.gasUsed),
          error: call.error?.message
        }))
      )
    })
    return { simulate, inTurn }
  })

  static readonly Default = Layer.effect(Simulator, Simulator.make)

  /** `effect` with its simulations in the background lane: they give way to any request's. */
  static readonly inBackground = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.locally(effect, background, true)
}
