/**
 * The devnet's fork venues beside the canonical Uniswap set, so that it looks like Arc: several venues
 * of one family, each with its own factory, init code hash and fee rules.
 * - `lowfee-v2`: a v2 fork charging 0.2 % (Uniswap v2-core compiled with another fee; see
 *   scripts/compile-v2-fork.ts: no npm package ships a fork's bytecode).
 * - `fork-v3`: a second deployment of Uniswap v3's own factory with an extra 0.25 % tier (tick spacing
 *   50), with its own position manager, SwapRouter and QuoterV2.
 */
import { Effect } from "effect"
import type { Address } from "viem"
import { USDC_ADDRESS } from "../schema/Chain.js"
import { loadArtifact } from "./Artifacts.js"
import { npmArtifact } from "./npmArtifacts.js"
import type { Tx } from "./Tx.js"

/** The fork's extra tier, absent from Uniswap v3 itself. */
export const FORK_V3_EXTRA_TIER = { fee: 2500, tickSpacing: 50 } as const

export const deployForkVenues = Effect.fn("deployForkVenues")(function*(tx: Tx, deployer: Address) {
  const lowFeeV2Factory = yield* tx.deploy(
    deployer,
    loadArtifact("UniswapV2Fork20Factory"),
    [deployer],
    "UniswapV2Fork20Factory"
  )
  const forkV3Factory = yield* tx.deploy(deployer, loadArtifact("UniswapV3Factory"), [], "fork UniswapV3Factory")
  const factory = { address: forkV3Factory, abi: loadArtifact("UniswapV3Factory").abi }
  yield* tx.write(deployer, factory, "enableFeeAmount", [100, 1])
  yield* tx.write(deployer, factory, "enableFeeAmount", [FORK_V3_EXTRA_TIER.fee, FORK_V3_EXTRA_TIER.tickSpacing])
  const forkV3PositionManager = yield* tx.deploy(
    deployer,
    loadArtifact("NonfungiblePositionManager"),
    [forkV3Factory, USDC_ADDRESS, "0x0000000000000000000000000000000000000000"],
    "fork NonfungiblePositionManager"
  )
  const forkV3Quoter = yield* tx.deploy(
    deployer,
    npmArtifact("v3Quoter"),
    [forkV3Factory, USDC_ADDRESS],
    "fork QuoterV2"
  )
  // The seeded history trades the fork's pools as a wallet would, through the fork's own SwapRouter.
  const forkV3SwapRouter = yield* tx.deploy(
    deployer,
    loadArtifact("SwapRouter"),
    [forkV3Factory, USDC_ADDRESS],
    "fork SwapRouter"
  )
  return { lowFeeV2Factory, forkV3Factory, forkV3PositionManager, forkV3Quoter, forkV3SwapRouter }
})
