/**
 * The devnet's venue file (schema/VenueFile.ts): the venues the bootstrap deployed, the canonical set
 * first, then the fork venues (./forkVenues.ts); the bootstrap deploys the router for the whole file, in
 * this order (./router.ts), so entry i is `Step.venue` i. Init code hashes come from the same artifacts
 * the factories deploy, so the file agrees with the chain by construction; the service checks it at
 * start all the same.
 */
import { FileSystem, Path } from "@effect/platform"
import { Effect, Schema } from "effect"
import { getAddress, keccak256 } from "viem"
import { VenueFile } from "../schema/VenueFile.js"
import { loadArtifact } from "./Artifacts.js"
import { DevnetError } from "./DevnetError.js"
import { FORK_V3_EXTRA_TIER } from "./forkVenues.js"
import { PAIR_FEE_V2 } from "./pairFeeVenue.js"
import { pancakeV3Entry } from "./pancakeVenue.js"
import type { Protocol } from "./protocol.js"

/** Uniswap v3's fee tiers with their tick spacings; the devnet enables 0.01 % as mainnet governance did. */
export const V3_FEE_TIERS = [
  { fee: 100, tickSpacing: 1 },
  { fee: 500, tickSpacing: 10 },
  { fee: 3000, tickSpacing: 60 },
  { fee: 10000, tickSpacing: 200 }
] as const

/** The devnet's venues, without a router: the bootstrap deploys the router for this file, in its order. */
export const devnetVenueFile = (protocol: Protocol, chainId: number): VenueFile => ({
  chainId,
  permit2: getAddress(protocol.permit2),
  venues: [
    {
      id: "uniswap-v2",
      name: "Uniswap v2",
      family: "v2",
      factory: getAddress(protocol.v2Factory),
      pairInitCodeHash: keccak256(loadArtifact("UniswapV2Pair").bytecode),
      fee: { fixed: 3000 }
    },
    {
      id: "uniswap-v3",
      name: "Uniswap v3",
      family: "v3",
      factory: getAddress(protocol.v3Factory),
      poolInitCodeHash: keccak256(loadArtifact("UniswapV3Pool").bytecode),
      feeTiers: V3_FEE_TIERS
    },
    {
      id: "uniswap-v4",
      name: "Uniswap v4",
      family: "v4",
      poolManager: getAddress(protocol.v4PoolManager),
      stateView: getAddress(protocol.v4StateView),
      quoter: getAddress(protocol.v4Quoter)
    },
    // Tokens still on the bonding curve trade against it; graduated ones move to Uniswap v2.
    {
      id: "launchpad",
      name: "Bonding-curve launchpad",
      family: "launchpad",
      launchpad: getAddress(protocol.launchpad),
      graduatesTo: "uniswap-v2"
    },
    {
      id: "lowfee-v2",
      name: "Low-fee v2 (0.2 %)",
      family: "v2",
      factory: getAddress(protocol.lowFeeV2Factory),
      pairInitCodeHash: keccak256(loadArtifact("UniswapV2Fork20Pair").bytecode),
      fee: { fixed: 2000 }
    },
    {
      id: "fork-v3",
      name: "Fork v3",
      family: "v3",
      factory: getAddress(protocol.forkV3Factory),
      poolInitCodeHash: keccak256(loadArtifact("UniswapV3Pool").bytecode),
      feeTiers: [...V3_FEE_TIERS, FORK_V3_EXTRA_TIER]
    },
    {
      id: PAIR_FEE_V2.id,
      name: "Pair-fee v2.5 (fee fixed per pair)",
      family: "v2",
      factory: getAddress(protocol.pairFeeV2Factory),
      pairInitCodeHash: keccak256(loadArtifact("UniswapV25Pair").bytecode),
      fee: { perPair: PAIR_FEE_V2.feeRule }
    },
    pancakeV3Entry(protocol)
  ]
})

/** Writes the venue file where the service reads it (`VENUES_FILE`); write then rename, never half a file. */
export const writeVenueFile = Effect.fn("writeVenueFile")(
  function*(file: string, venues: VenueFile) {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    yield* fs.makeDirectory(path.dirname(file), { recursive: true })
    const temporary = `${file}.${process.pid}.tmp`
    yield* fs.writeFileString(temporary, `${JSON.stringify(Schema.encodeSync(VenueFile)(venues), null, 2)}\n`)
    yield* fs.rename(temporary, file)
  },
  (effect, file) =>
    Effect.mapError(effect, (cause) => new DevnetError({ message: `cannot write venue file ${file}`, cause }))
)
