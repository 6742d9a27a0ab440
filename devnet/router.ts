/**
 * Deploys the service's router (contracts/router/TradeRouter.sol) on the devnet, wired to the protocols
 * the bootstrap deployed. Pool init-code hashes are taken from the same artifacts the factories deploy,
 * so the router's CREATE2 pool check agrees with the factories by construction. Native value is turned
 * into USDC through the devnet USDC's `deposit` (NATIVE_DEPOSIT); on Arc the router would be deployed
 * with NATIVE_SAME_BALANCE instead.
 */
import { Effect } from "effect"
import { type Address, keccak256 } from "viem"
import { loadArtifact } from "./Artifacts.js"
import type { Protocol } from "./protocol.js"
import type { Tx } from "./Tx.js"

export const NATIVE_DEPOSIT = 1

export const deployRouter = Effect.fn("deployRouter")(function*(tx: Tx, deployer: Address, protocol: Protocol) {
  const config = {
    v2Factory: protocol.v2Factory,
    v2PairInitCodeHash: keccak256(loadArtifact("UniswapV2Pair").bytecode),
    v3Factory: protocol.v3Factory,
    v3PoolInitCodeHash: keccak256(loadArtifact("UniswapV3Pool").bytecode),
    poolManager: protocol.v4PoolManager,
    launchpad: protocol.launchpad,
    permit2: protocol.permit2,
    usdc: protocol.usdc,
    nativeMode: NATIVE_DEPOSIT
  }
  return yield* tx.deploy(deployer, loadArtifact("TradeRouter"), [config], "TradeRouter")
})
