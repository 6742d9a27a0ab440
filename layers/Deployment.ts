/**
 * Where the service's chain and contracts are: the RPC endpoint, contract addresses by role, the
 * verification token list and the block indexing may start from. On the devnet it comes from the
 * manifest the bootstrap writes; on a real chain from configuration.
 */
import { FileSystem } from "@effect/platform"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { type Address, lowerAddress, USDC_ADDRESS } from "../schema/Chain.js"
import { Manifest, type TokenList } from "../schema/Manifest.js"
import { VenueFile } from "../schema/VenueFile.js"
import { AppConfig } from "./AppConfig.js"

/** Start-up refuses the venue file: the message names the entry and what disagrees with the chain. */
export class VenueFileRefused extends Schema.TaggedError<VenueFileRefused>()("VenueFileRefused", {
  message: Schema.String
}) {}

export interface DeploymentShape {
  readonly rpcUrl: string
  readonly chainId: number
  readonly startBlock: number
  /** role → address; roles: `usdc`, `permit2`, `v2Factory`, `v3Factory`, `v4PoolManager`, `launchpad`, `router`, hooks. */
  readonly contracts: Readonly<Record<string, `0x${string}`>>
  readonly tokenList: TokenList
  /** The chain's venues (`VENUES_FILE`, or the devnet manifest's own). */
  readonly venues: VenueFile
}

/** The chain's USDC (the `usdc` role, else Arc's predeploy), lower-case as the index keys tokens. */
export const usdcOf = (deployment: { readonly contracts: Readonly<Record<string, `0x${string}`>> }): Address =>
  lowerAddress(deployment.contracts["usdc"] ?? USDC_ADDRESS)

/** The contract of `role`, lower-case as the service compares addresses; undefined when none is listed. */
export const contractOf = (deployment: Pick<DeploymentShape, "contracts">, role: string): Address | undefined => {
  const listed = deployment.contracts[role]
  return listed === undefined ? undefined : lowerAddress(listed)
}

export class Deployment extends Context.Tag("Deployment")<Deployment, DeploymentShape>() {
  /**
   * From a manifest and its venue file; the devnet's manifest carries its own, so a missing one is a bug.
   * The file names the chain's Permit2, which need not be at the canonical address: permits, their typed
   * data and allowance reads all use the `permit2` role, so it is the file's, whatever the manifest says.
   */
  static readonly make = (manifest: Manifest, venues = manifest.venues): DeploymentShape => {
    if (venues === undefined) throw new VenueFileRefused({ message: "the manifest names no venue file" })
    return {
      rpcUrl: manifest.rpcUrl,
      chainId: manifest.chainId,
      startBlock: manifest.startBlock,
      contracts: { ...manifest.contracts, permit2: venues.permit2 },
      tokenList: manifest.tokenList,
      venues
    }
  }

  /**
   * Reads the operator's manifest `MANIFEST_PATH` (required) and venue file `VENUES_FILE` (unset: the
   * manifest's own `venues`; named and absent: refused, never silently another file); `RPC_URL`, when
   * set, overrides the manifest's endpoint. The router is `ROUTER_ADDRESS`, else the venue file's `router`,
   * else the manifest's `router` role (no router anywhere makes every plan non-executable).
   */
  static readonly layerManifestFile = Layer.effect(
    Deployment,
    Effect.gen(function*() {
      const config = yield* AppConfig
      const fs = yield* FileSystem.FileSystem
      if (Option.isNone(config.manifestPath)) {
        return yield* new VenueFileRefused({
          message: "MANIFEST_PATH is not set: with RPC_URL it names the chain's manifest " +
            `(for a devnet started by \`npm run devnet\`: ${AppConfig.devnetFiles(config).manifest})`
        })
      }
      const manifestPath = config.manifestPath.value
      if (!(yield* fs.exists(manifestPath))) {
        return yield* new VenueFileRefused({ message: `MANIFEST_PATH ${manifestPath} does not exist` })
      }
      const manifest = yield* Schema.decodeUnknown(Schema.parseJson(Manifest))(yield* fs.readFileString(manifestPath))
      if (Option.isSome(config.venuesFile) && !(yield* fs.exists(config.venuesFile.value))) {
        return yield* new VenueFileRefused({ message: `VENUES_FILE ${config.venuesFile.value} does not exist` })
      }
      const venues = Option.isSome(config.venuesFile)
        ? yield* Schema.decodeUnknown(Schema.parseJson(VenueFile))(yield* fs.readFileString(config.venuesFile.value))
        : manifest.venues
      if (venues === undefined) {
        return yield* new VenueFileRefused({
          message: `VENUES_FILE is not set and the manifest ${manifestPath} has no venues`
        })
      }
      const listed = Deployment.make(manifest, venues)
      // One router for the checks and for execution: the venue file's is deployed for its venues, while a
      // manifest's `router` role may be one deployed for another file (the devnet's, before a venue was added).
      const router = Option.getOrElse(config.routerAddress, () => venues.router ?? manifest.contracts["router"])
      const deployment = router === undefined ? listed : {
        ...listed,
        contracts: { ...listed.contracts, router },
        venues: { ...venues, router }
      }
      return Option.match(config.rpcUrl, {
        onNone: () => deployment,
        onSome: (rpcUrl) => ({ ...deployment, rpcUrl })
      })
    })
  )
}
