/**
 * The devnet's PancakeSwap v3 venue, `pancake-v3`: a v3 fork whose pools are created by a separate pool
 * deployer, as on the chains PancakeSwap runs on. The factory and the pool are PancakeSwap's own bytecode
 * from `@pancakeswap/v3-core` (the pools' init code hash is PancakeSwap's real one); the pool deployer,
 * which no package ships, is contracts/pancake/PancakeV3PoolDeployer.sol, deploying that pool code. Its
 * pools call back `pancakeV3SwapCallback` and emit a Swap event with two more fields than Uniswap's: the
 * venue file says both, and nothing in the service names this venue.
 */
import { Effect } from "effect"
import { type Address, keccak256 } from "viem"
import type { V3VenueEntry } from "../schema/VenueFile.js"
import { loadArtifact } from "./Artifacts.js"
import type { Tx } from "./Tx.js"

/** The tiers PancakeV3Factory's constructor enables. */
export const PANCAKE_V3_FEE_TIERS = [
  { fee: 100, tickSpacing: 1 },
  { fee: 500, tickSpacing: 10 },
  { fee: 2500, tickSpacing: 50 },
  { fee: 10000, tickSpacing: 200 }
] as const

export const deployPancakeV3 = Effect.fn("deployPancakeV3")(function*(tx: Tx, deployer: Address) {
  const pool = loadArtifact("PancakeV3Pool")
  const pancakeV3PoolDeployer = yield* tx.deploy(
    deployer,
    loadArtifact("PancakeV3PoolDeployer"),
    [pool.bytecode],
    "PancakeV3PoolDeployer"
  )
  const pancakeV3Factory = yield* tx.deploy(
    deployer,
    loadArtifact("PancakeV3Factory"),
    [pancakeV3PoolDeployer],
    "PancakeV3Factory"
  )
  const poolDeployer = { address: pancakeV3PoolDeployer, abi: loadArtifact("PancakeV3PoolDeployer").abi }
  yield* tx.write(deployer, poolDeployer, "setFactoryAddress", [pancakeV3Factory])
  // Adds liquidity and trades the seeded history as a wallet would (Uniswap's periphery cannot).
  const pancakeV3Liquidity = yield* tx.deploy(deployer, loadArtifact("PancakeV3Liquidity"), [], "PancakeV3Liquidity")
  return { pancakeV3Factory, pancakeV3PoolDeployer, pancakeV3Liquidity }
})

export const pancakeV3Entry = (
  contracts: { readonly pancakeV3Factory: Address; readonly pancakeV3PoolDeployer: Address }
): typeof V3VenueEntry.Type => ({
  id: "pancake-v3",
  name: "PancakeSwap v3",
  family: "v3",
  factory: contracts.pancakeV3Factory,
  poolDeployer: contracts.pancakeV3PoolDeployer,
  poolInitCodeHash: keccak256(loadArtifact("PancakeV3Pool").bytecode),
  feeTiers: PANCAKE_V3_FEE_TIERS,
  swapCallback: "pancakeV3SwapCallback",
  swapEvent: "Swap(address,address,int256,int256,uint160,uint128,int24,uint128,uint128)"
})
