/**
 * The simulator's two lanes on a real anvil: a request's simulation is sent at once, whatever the
 * background scan has waiting, and the scan's give way to it (layers/Simulator.ts). The node is real;
 * the only addition is a recorder around the service's own ChainRpc that notes when each
 * `eth_simulateV1` was sent and answered, and by which lane.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Layer, Scope } from "effect"
import type { Address } from "viem"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { BACKGROUND_IN_FLIGHT, type SimulationRequest, Simulator } from "../../layers/Simulator.js"
import { RpcHex } from "../../schema/Chain.js"
import { startPlainAnvil } from "../support/plainAnvil.js"

interface Sent {
  readonly lane: "scan" | "request"
  readonly sent: number
  done: number
}

const scope = Effect.runSync(Scope.make())
let rpcUrl = ""
beforeAll(async () => {
  rpcUrl = (await startPlainAnvil(scope)).rpcUrl
})
afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

/** The service's ChainRpc on the anvil, each simulation noted with its lane and times. */
const recorded = (log: Array<Sent>) => {
  const rpc = ChainRpc.make({ rpcUrl, chainId: 5042 })
  const note = <A, E>(lane: Sent["lane"], method: string, call: Effect.Effect<A, E>) =>
    method !== "eth_simulateV1" ? call : Effect.suspend(() => {
      const entry: Sent = { lane, sent: performance.now(), done: Number.POSITIVE_INFINITY }
      log.push(entry)
      return Effect.ensuring(call, Effect.sync(() => (entry.done = performance.now())))
    })
  const wrapped: ChainRpc["Type"] = {
    ...rpc,
    read: (schema, method, params) => note("scan", method, rpc.read(schema, method, params)),
    readNow: (schema, method, params) => note("request", method, rpc.readNow(schema, method, params))
  }
  return wrapped
}

const FROM: Address = "0x00000000000000000000000000000000000a11ce"
/** A simulation with some weight to it: 300 native transfers from a funded stranger. */
const transfers = (block: bigint): SimulationRequest => ({
  block,
  blocks: [Array.from({ length: 300 }, (_, i) => ({
    from: FROM,
    to: `0x${(0x10000 + i).toString(16).padStart(40, "0")}` as Address,
    data: "0x",
    value: 1n,
    gas: 21_000n
  }))],
  balances: [{ address: FROM, wei: 10n ** 21n }]
})

/** The service's simulator on the recorded ChainRpc, and a request at the node's head. */
const simulatorAtHead = (log: Array<Sent>) =>
  Effect.gen(function*() {
    const rpc = recorded(log)
    const simulator = yield* Simulator.make.pipe(Effect.provide(Layer.succeed(ChainRpc, rpc)))
    const head = BigInt(yield* rpc.read(RpcHex, "eth_blockNumber"))
    return { simulator, request: transfers(head) }
  })

describe("simulator lanes", () => {
  it.live(
    "a request's simulation is sent ahead of a busy scan's backlog, and the backlog still runs",
    () =>
      Effect.gen(function*() {
        const log: Array<Sent> = []
        const { request, simulator } = yield* simulatorAtHead(log)
        const backlog = 12
        const scan = yield* Effect.fork(Effect.all(
          Array.from({ length: backlog }, () => Simulator.inBackground(simulator.simulate(request))),
          { concurrency: "unbounded" }
        ))
        // The scan is at the node before the request comes.
        while (log.filter((entry) => entry.lane === "scan").length < BACKGROUND_IN_FLIGHT) yield* Effect.sleep(5)
        const answered = yield* simulator.simulate(request)
        const scanned = yield* Fiber.join(scan)

        expect(answered[0]!.filter((call) => !call.ok).map((call) => call.error).slice(0, 2)).toEqual([])
        expect(scanned).toHaveLength(backlog)
        expect(scanned.every((result) => result[0]!.every((call) => call.ok))).toBe(true)

        const asked = log.find((entry) => entry.lane === "request")!
        const scanLog = log.filter((entry) => entry.lane === "scan")
        // Ahead of it at the node: only what the scan had there when it came, at most its lane's width.
        const ahead = scanLog.filter((entry) => entry.sent < asked.sent && entry.done > asked.sent)
        expect(ahead.length).toBeLessThanOrEqual(BACKGROUND_IN_FLIGHT)
        // Nothing of the scan is sent while the request waits for its answer.
        expect(scanLog.filter((entry) => entry.sent > asked.sent && entry.sent < asked.done)).toEqual([])
        // Most of the backlog went after it.
        expect(scanLog.filter((entry) => entry.sent > asked.done).length).toBeGreaterThanOrEqual(
          backlog - 2 * BACKGROUND_IN_FLIGHT
        )
        // The scan never has more than its lane's width at the node.
        for (const entry of scanLog) {
          const atOnce = scanLog.filter((other) => other.sent <= entry.sent && other.done > entry.sent)
          expect(atOnce.length).toBeLessThanOrEqual(BACKGROUND_IN_FLIGHT)
        }
      }),
    60_000
  )

  it.live(
    "the scan builds a simulation's request only once it holds a turn, and none while a request's waits",
    () =>
      Effect.gen(function*() {
        const log: Array<Sent> = []
        const { request, simulator } = yield* simulatorAtHead(log)
        // A request's simulation at the node first; the scan's 12 come while it waits for its answer.
        const asked = yield* Effect.fork(simulator.simulate(request))
        while (log.length < 1) yield* Effect.sleep(1)
        const builds: Array<number> = []
        let building = 0
        let most = 0
        const scanned = yield* Effect.all(
          Array.from({ length: 12 }, () =>
            Simulator.inBackground(simulator.inTurn(Effect.suspend(() => {
              builds.push(performance.now())
              most = Math.max(most, ++building)
              return Effect.ensuring(simulator.simulate(request), Effect.sync(() => building--))
            })))),
          { concurrency: "unbounded" }
        )
        yield* Fiber.join(asked)
        expect(scanned).toHaveLength(12)
        // Never more requests built than the lane lets go, each taking no second turn for its reads.
        expect(most).toBe(BACKGROUND_IN_FLIGHT)
        // None built while the request's simulation waited for its answer.
        expect(Math.min(...builds)).toBeGreaterThanOrEqual(log[0]!.done)
      }),
    60_000
  )

  it.live(
    "without the scan's lane the same backlog is all at the node ahead of the request",
    () =>
      Effect.gen(function*() {
        // The yardstick the first test is read against: the scan's simulations sent as a request's are.
        const log: Array<Sent> = []
        const { request, simulator } = yield* simulatorAtHead(log)
        const scan = yield* Effect.fork(Effect.all(
          Array.from({ length: 12 }, () => simulator.simulate(request)),
          { concurrency: "unbounded" }
        ))
        while (log.length < 12) yield* Effect.sleep(1)
        yield* Fiber.join(scan)
        expect(log.filter((entry) => entry.sent < Math.min(...log.map((e) => e.done))).length).toBeGreaterThan(
          BACKGROUND_IN_FLIGHT
        )
      }),
    60_000
  )
})
