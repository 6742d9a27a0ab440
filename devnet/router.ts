/**
 * Deploys the service's router (contracts/router/TradeRouter.sol) for a venue file: its venue table is
 * the file's venues in file order (schema/VenueTable.ts), so a plan's `Step.venue` i is the file's
 * venue i. Until the bootstrap writes the devnet's venue file, `devnetVenueFile` builds it from the
 * deployment's roles, one venue per family with today's ids; pool init code hashes are taken from the
 * same artifacts the factories deploy, so the router's CREATE2 pool check agrees with the factories by
 * construction. Native value is turned into USDC through the devnet USDC's `deposit` (NATIVE_DEPOSIT); on
 * Arc the router is deployed with NATIVE_SAME_BALANCE instead.
 */
import { Effect } from "effect"
import { type Address, keccak256 } from "viem"
import type { VenueFile } from "../schema/VenueFile.js"
import { venueTableOf } from "../schema/VenueTable.js"
import { loadArtifact } from "./Artifacts.js"
import type { Protocol } from "./protocol.js"
import type { Tx } from "./Tx.js"

export const NativeMode = { none: 0, deposit: 1, sameBalance: 2 } as const
export type NativeModeCode = (typeof NativeMode)[keyof typeof NativeMode]

/** The constructor argument of TradeRouter for `file`. */
export const routerConfigOf = (file: VenueFile, usdc: Address, nativeMode: NativeModeCode) => ({
  permit2: file.permit2 as Address,
  usdc,
  nativeMode,
  venues: venueTableOf(file)
})

/** `Step.venue` of each devnet venue: its index in `devnetVenueFile`, as tests and benches name them. */
export const DevnetVenue = { v2: 0, v3: 1, v4: 2, curve: 3 } as const

/** The devnet's venues as a venue file, in the order uniswap-v2, uniswap-v3, uniswap-v4, launchpad. */
export const devnetVenueFile = (protocol: Protocol, chainId: number): VenueFile => ({
  chainId,
  permit2: protocol.permit2,
  venues: [
    {
      id: "uniswap-v2",
      name: "Uniswap v2",
      family: "v2",
      factory: protocol.v2Factory,
      pairInitCodeHash: keccak256(loadArtifact("UniswapV2Pair").bytecode),
      fee: { fixed: 3000 }
    },
    {
      id: "uniswap-v3",
      name: "Uniswap v3",
      family: "v3",
      factory: protocol.v3Factory,
      poolInitCodeHash: keccak256(loadArtifact("UniswapV3Pool").bytecode),
      feeTiers: [
        { fee: 100, tickSpacing: 1 },
        { fee: 500, tickSpacing: 10 },
        { fee: 3000, tickSpacing: 60 },
        { fee: 10000, tickSpacing: 200 }
      ]
    },
    {
      id: "uniswap-v4",
      name: "Uniswap v4",
      family: "v4",
      poolManager: protocol.v4PoolManager,
      stateView: protocol.v4StateView,
      quoter: protocol.v4Quoter
    },
    {
      id: "launchpad",
      name: "Bonding-curve launchpad",
      family: "launchpad",
      launchpad: protocol.launchpad,
      graduatesTo: "uniswap-v2"
    }
  ]
})

export const deployRouter = Effect.fn("deployRouter")(
  function*(tx: Tx, deployer: Address, file: VenueFile, usdc: Address, nativeMode: NativeModeCode) {
    const config = routerConfigOf(file, usdc, nativeMode)
    return yield* tx.deploy(deployer, loadArtifact("TradeRouter"), [config], "TradeRouter")
  }
)
