/**
 * Reads at arrival (`ChainRpc.readNow`) go over websockets kept open to a real anvil, one read at a time
 * on each, and over HTTP when none can carry them: not yet open, killed, killed with a read on its way,
 * or every one busy with another read. Each read is sent when asked, so whichever path carries it, it
 * names the block the node is at then. The sockets run through `startTcpCut`, which kills their
 * connections for real; HTTP runs through a call counter.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Scope } from "effect"
import { devnetDefaults } from "../../devnet/DevnetConfig.js"
import { type SocketCalls, socketCalls } from "../../layers/chain/SocketCalls.js"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { RpcHex } from "../../schema/Chain.js"
import { startPlainAnvil } from "../support/plainAnvil.js"
import { type RpcCounter, startRpcCounter } from "../support/rpcCounter.js"
import { startTcpCut, type TcpCut } from "../support/tcpCut.js"
import { untilAsync } from "../support/until.js"

const scope = Effect.runSync(Scope.make())
let http: RpcCounter
let cutter: TcpCut
let socket: SocketCalls
let rpc: ChainRpc["Type"]
const LANES = 2

beforeAll(async () => {
  const anvil = await startPlainAnvil(scope)
  http = await startRpcCounter(anvil.rpcUrl)
  cutter = await startTcpCut(anvil.port)
  socket = await Effect.runPromise(
    socketCalls(`ws://127.0.0.1:${cutter.port}`, 10_000, LANES).pipe(Scope.extend(scope))
  )
  rpc = ChainRpc.make({ rpcUrl: http.url, chainId: devnetDefaults.chainId }, socket)
})
afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await cutter.close()
  await http.close()
})

const head = () => Effect.runPromise(Effect.map(rpc.readNow(RpcHex, "eth_blockNumber"), Number))
/** A new block, mined through HTTP: the block a read sent after this must name. */
const mine = async () => {
  await Effect.runPromise(rpc.request("evm_mine"))
  return Number(await Effect.runPromise(rpc.read(RpcHex, "eth_blockNumber")))
}
/** The sockets are opened again by a read after their back-off (the read itself going over HTTP). */
const socketOpen = () =>
  untilAsync("the sockets to the node to be open", async () => {
    await head()
    return socket.open() === LANES
  })

/** A block mined, then `count` reads of the head sent on sockets and held there, unanswered. */
const readsHeldOnSockets = async (count = 1) => {
  await socketOpen()
  const mined = await mine()
  cutter.hold()
  const before = http.calls()
  const pending = []
  for (let i = 0; i < count; i++) {
    const held = cutter.heldBytes()
    pending.push(Effect.runFork(rpc.readNow(RpcHex, "eth_blockNumber")))
    await untilAsync("the read to be sent on a socket", async () => cutter.heldBytes() > held)
  }
  return { before, mined, pending }
}

describe("reads at arrival over the node's websocket", () => {
  it("an open socket carries them: no HTTP call, and the block mined just before is named", async () => {
    await socketOpen()
    const mined = await mine()
    const before = http.calls()
    expect(await head()).toBe(mined)
    expect(await head()).toBe(mined)
    expect(http.calls()).toBe(before)
  })

  it("a killed socket: the next read goes over HTTP and names the current block, then the socket opens again", async () => {
    await socketOpen()
    cutter.cut()
    await untilAsync("the client to see its sockets closed", async () => socket.open() === 0)
    const mined = await mine()
    const before = http.calls()
    expect(await head()).toBe(mined)
    expect(http.calls()).toBe(before + 1)

    // Opened again on a later read, after its back-off; reads then leave HTTP alone again.
    await socketOpen()
    const reopened = http.calls()
    expect(await head()).toBe(mined)
    expect(http.calls()).toBe(reopened)
  })

  it("a socket killed with a read on its way: that read is sent again over HTTP and answered", async () => {
    const { before, mined, pending: [pending] } = await readsHeldOnSockets()
    expect(http.calls()).toBe(before)
    cutter.cut()
    expect(Number(await Effect.runPromise(Fiber.join(pending!)))).toBe(mined)
    expect(http.calls()).toBe(before + 1)
  })

  it("a read asked while another is on a socket takes the next socket", async () => {
    const { before, pending } = await readsHeldOnSockets(LANES)
    expect(http.calls()).toBe(before)
    cutter.cut()
    await Effect.runPromise(Fiber.joinAll(pending))
  })

  it("a read asked while every socket carries one goes over HTTP at once, not behind them", async () => {
    const { before, mined, pending } = await readsHeldOnSockets(LANES)
    // A node that writes without TCP_NODELAY (anvil) would hold a second answer on a socket ~40 ms.
    expect(await head()).toBe(mined)
    expect(http.calls()).toBe(before + 1)
    cutter.cut()
    expect((await Effect.runPromise(Fiber.joinAll(pending))).map(Number)).toEqual([mined, mined])
  })

  it("a call the node refuses over the socket fails as RpcUnavailable, not over HTTP again", async () => {
    await socketOpen()
    const before = http.calls()
    const refused = await Effect.runPromise(Effect.flip(rpc.readNow(RpcHex, "eth_noSuchMethod")))
    expect(refused._tag).toBe("RpcUnavailable")
    expect(http.calls()).toBe(before)
  })
})
