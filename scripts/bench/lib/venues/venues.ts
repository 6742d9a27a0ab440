/**
 * Grows the devnet's venue file to `total` venues with Uniswap v2-family clones: Uniswap v2's factory
 * deployed again from its own bytecode (a new venue with Uniswap's init code hash and 0.3 % fee) and,
 * every third, the devnet's 0.2 % fork (`lowfee-v2`'s factory, its own init code hash). A router is
 * deployed for the grown file, as the bootstrap does for the devnet's, so plans stay executable.
 */
import { getAddress, keccak256 } from "viem"
import { loadArtifact } from "../../../../devnet/Artifacts.js"
import { NativeMode, routerConfigOf } from "../../../../devnet/router.js"
import type { Address } from "../../../../schema/Chain.js"
import type { Manifest } from "../../../../schema/Manifest.js"
import type { V2VenueEntry, VenueFile } from "../../../../schema/VenueFile.js"
import type { Chain } from "./chain.js"

export interface GrownVenues {
  readonly file: VenueFile
  /** Every v2-family factory with a fixed fee, the devnet's first: where the benchmark seeds pools. */
  readonly v2Factories: ReadonlyArray<Address>
  /** The factories of the added venues. */
  readonly added: ReadonlyArray<Address>
  /** The devnet's manifest with the grown file and its router. */
  readonly manifest: Manifest
}

const clone = (index: number) =>
  index % 3 === 2
    ? { factory: "UniswapV2Fork20Factory", pair: "UniswapV2Fork20Pair", fee: 2000, label: "0.2 %" } as const
    : { factory: "UniswapV2Factory", pair: "UniswapV2Pair", fee: 3000, label: "0.3 %" } as const

export const growVenues = async (chain: Chain, manifest: Manifest, total: number): Promise<GrownVenues> => {
  const devnetFile = manifest.venues!
  const added: Array<typeof V2VenueEntry.Type> = []
  for (let i = 0; i < total - devnetFile.venues.length; i++) {
    const kind = clone(i)
    const artifact = loadArtifact(kind.factory)
    const factory = await chain.deploy(artifact.abi, artifact.bytecode, [chain.deployer])
    added.push({
      id: `clone-v2-${i + 1}`,
      name: `Clone v2 ${i + 1} (${kind.label})`,
      family: "v2",
      factory: getAddress(factory),
      pairInitCodeHash: keccak256(loadArtifact(kind.pair).bytecode),
      fee: { fixed: kind.fee }
    })
  }
  const venues: VenueFile["venues"] = [devnetFile.venues[0], ...devnetFile.venues.slice(1), ...added]
  const usdc = manifest.contracts["usdc"] as Address
  const router = await chain.deploy(loadArtifact("TradeRouter").abi, loadArtifact("TradeRouter").bytecode, [
    routerConfigOf({ ...devnetFile, venues }, usdc, NativeMode.deposit)
  ])
  const file: VenueFile = { ...devnetFile, venues, router: getAddress(router) }
  const v2Factories = venues.flatMap((venue) =>
    venue.family === "v2" && "fixed" in venue.fee ? [venue.factory.toLowerCase() as Address] : []
  )
  const addedFactories = added.map((venue) => venue.factory.toLowerCase() as Address)
  return {
    file,
    v2Factories,
    added: addedFactories,
    manifest: { ...manifest, venues: file, contracts: { ...manifest.contracts, router } }
  }
}
