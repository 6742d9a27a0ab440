/**
 * Reads at arrival (`ChainRpc.readNow`) go over a websocket kept open to a real anvil, and over HTTP
 * when that socket cannot carry them: not yet open, killed, killed with a read on its way, or busy with
 * another read. Each read
 * is sent when asked, so whichever path carries it, it names the block the node is at then. The socket
 * runs through `startTcpCut`, which kills its connection for real; HTTP runs through a call counter.
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

beforeAll(async () => {
  const anvil = await startPlainAnvil(scope)
  http = await startRpcCounter(anvil.rpcUrl)
  cutter = await startTcpCut(anvil.port)
  socket = await Effect.runPromise(socketCalls(`ws://127.0.0.1:${cutter.port}`, 10_000).pipe(Scope.extend(scope)))
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
/** The socket is opened again by a read after its back-off (the read itself going over HTTP). */
const socketOpen = () =>
  untilAsync("the socket to the node to be open", async () => {
    await head()
    return socket.open()
  })

/** A block mined, then a read of the head sent on the socket and held there, unanswered. */
const readHeldOnSocket = async () => {
  await socketOpen()
  const mined = await mine()
  cutter.hold()
  const before = http.calls()
  const pending = Effect.runFork(rpc.readNow(RpcHex, "eth_blockNumber"))
  await untilAsync("the read to be sent on the socket", async () => cutter.heldBytes() > 0)
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
    await untilAsync("the client to see its socket closed", async () => !socket.open())
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
    const { before, mined, pending } = await readHeldOnSocket()
    expect(http.calls()).toBe(before)
    cutter.cut()
    expect(Number(await Effect.runPromise(Fiber.join(pending)))).toBe(mined)
    expect(http.calls()).toBe(before + 1)
  })

  it("a read asked while another is on the socket goes over HTTP at once, not behind it", async () => {
    const { before, mined, pending: first } = await readHeldOnSocket()
    // A node that writes without TCP_NODELAY (anvil) would hold a second answer on the socket ~40 ms.
    expect(await head()).toBe(mined)
    expect(http.calls()).toBe(before + 1)
    cutter.cut()
    expect(Number(await Effect.runPromise(Fiber.join(first)))).toBe(mined)
  })

  it("a call the node refuses over the socket fails as RpcUnavailable, not over HTTP again", async () => {
    await socketOpen()
    const before = http.calls()
    const refused = await Effect.runPromise(Effect.flip(rpc.readNow(RpcHex, "eth_noSuchMethod")))
    expect(refused._tag).toBe("RpcUnavailable")
    expect(http.calls()).toBe(before)
  })
})
