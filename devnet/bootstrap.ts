/**
 * The cold bootstrap on a fresh anvil (started at the backdated genesis): protocols, then the seeded
 * market, then the manifest. Transactions are queued and mined a block at a time (Tx.ts); automine is
 * back on before the chain is brought to the present.
 */
import { type Context, Effect } from "effect"
import { getAddress, type Hex } from "viem"
import type { ChainRpc } from "../layers/ChainRpc.js"
import { RpcHex } from "../schema/Chain.js"
import type { Manifest } from "../schema/Manifest.js"
import { roles } from "./accounts.js"
import type { DevnetError } from "./DevnetError.js"
import { buildManifest } from "./manifest.js"
import { type Clock, makeClock } from "./market/clock.js"
import type { Market } from "./market/context.js"
import { seedMarket } from "./market/seedMarket.js"
import { codeHashes, deployProtocol } from "./protocol.js"
import { deployRouter, NativeMode } from "./router.js"
import { makeTx } from "./Tx.js"
import { devnetVenueFile } from "./venues.js"

export interface Bootstrapped {
  readonly manifest: Manifest
  /** keccak256 of the runtime code at each contract role, checked when a cached state is reloaded. */
  readonly codeHashes: Readonly<Record<string, Hex>>
}

export const bootstrap: (
  rpc: Context.Tag.Service<ChainRpc>,
  end: number
) => Effect.Effect<Bootstrapped, DevnetError> = Effect.fn("bootstrap")(function*(rpc, end) {
  const tx = makeTx(rpc)
  const clock: Clock = makeClock(tx, end)
  const { clients, treasury, deployer } = roles()
  const startBlock = Number(yield* tx.readRpc(RpcHex, "eth_blockNumber", [])) + 1
  yield* tx.begin
  const protocol = yield* deployProtocol(tx, deployer.address, treasury.address)
  const market: Market = {
    tx,
    protocol,
    deployer: deployer.address,
    treasury: treasury.address,
    tokens: new Map(),
    pools: [],
    approved: new Set()
  }
  yield* seedMarket(market, clock, clients.map((client) => client.address))
  // Last, so that no seeded token or pool address moves because of it.
  // The venue file first, then the router deployed for all of it, in file order, then its address.
  const file = devnetVenueFile(protocol, rpc.endpoint.chainId)
  const router = yield* deployRouter(tx, deployer.address, file, protocol.usdc, NativeMode.deposit)
  yield* tx.end
  yield* clock.catchUp
  const contracts = { ...protocol, router }
  const venues = { ...file, router: getAddress(router) }
  const manifest = yield* buildManifest({
    rpcUrl: rpc.endpoint.rpcUrl,
    chainId: rpc.endpoint.chainId,
    startBlock,
    protocol: contracts,
    market,
    clients,
    createdAt: new Date(end * 1000),
    venues
  })
  const hashes = yield* codeHashes(tx, contracts)
  return { manifest, codeHashes: hashes }
})
