/**
 * The venues benchmark's market on the grown venue file: every hub pair (USDC, WETH, WBTC, EURC) on each
 * added venue at its own depth ($50k to $3M) and price (within ±0.4 % of the devnet's), so a route search
 * across venues has real choices; then `pools` more, two per new token, each against a hub on a v2
 * venue, the hubs and venues spread over the tokens (VenueBuilder.sol, 100 pools per transaction).
 */
import { join } from "node:path"
import { type Address, numberToHex, parseAbi } from "viem"
import type { Manifest } from "../../../../schema/Manifest.js"
import { compileBuilder } from "../builder.js"
import type { Chain } from "./chain.js"

/** Each hub's base units per dollar, at the devnet's prices (devnet/market/data/tokens.ts). */
const HUBS = [
  { label: "USDC", perUsd: 1_000_000n },
  { label: "WETH", perUsd: 10n ** 18n / 3_000n },
  { label: "WBTC", perUsd: 10n ** 8n / 60_000n },
  { label: "EURC", perUsd: 1_000_000n * 100n / 108n }
] as const

const TOKENS_PER_TX = 50

const erc20 = parseAbi([
  "function deposit() payable",
  "function transfer(address, uint256) returns (bool)",
  "function mint(address, uint256)"
])

export const hubPairs = HUBS.flatMap((a, i) => HUBS.slice(i + 1).map((b) => [a, b] as const))

export const venueMarket = async (chain: Chain, manifest: Manifest) => {
  const compiled = await compileBuilder(join(import.meta.dirname, "VenueBuilder.sol"), "VenueBuilder")
  await chain.anvil("anvil_setBlockGasLimit", ["0xb2d05e00"])
  const builder = await chain.deploy(compiled.abi, compiled.bytecode, [])
  const hub = (label: string) => manifest.tokens![label]! as Address
  // Enough of every hub for the hub pairs and 10,000+ token pools: USDC from native value, the rest minted.
  const dollars = 1_000_000_000n
  const usdc = hub("USDC")
  await chain.anvil("anvil_setBalance", [chain.deployer, numberToHex(dollars * 10n ** 20n)])
  await chain.write({
    address: usdc,
    abi: erc20,
    functionName: "deposit",
    value: dollars * 10n ** 18n
  })
  await chain.write({
    address: usdc,
    abi: erc20,
    functionName: "transfer",
    args: [builder, dollars * 1_000_000n]
  })
  for (const { label, perUsd } of HUBS.slice(1)) {
    await chain.write({
      address: hub(label),
      abi: erc20,
      functionName: "mint",
      args: [builder, dollars * perUsd]
    })
  }
  const write = (functionName: "seed" | "tokens", args: ReadonlyArray<unknown>) =>
    chain.write({
      address: builder,
      abi: compiled.abi,
      functionName,
      args,
      gas: 2_900_000_000n
    })

  /** Every hub pair on each of `factories`, depth and price varying venue to venue. */
  const seedHubPairs = async (factories: ReadonlyArray<Address>) => {
    const seeds = factories.flatMap((factory, v) =>
      hubPairs.map(([a, b], p) => {
        const depthUsd = 50_000n + (BigInt(v * 7 + p * 13 + 1) * 104_729n) % 2_950_000n
        const skewBps = BigInt(((v * 31 + p * 17) % 81) - 40)
        return {
          factory,
          a: hub(a.label),
          b: hub(b.label),
          amountA: (depthUsd / 2n) * a.perUsd,
          amountB: ((depthUsd / 2n) * b.perUsd * (10_000n + skewBps)) / 10_000n
        }
      })
    )
    await write("seed", [seeds])
    return seeds.length
  }

  /** `pools` pools (rounded up to even), two per new token, over `factories`; resolves with the count. */
  const seedTokenPools = async (factories: ReadonlyArray<Address>, pools: number) => {
    const tokens = Math.ceil(pools / 2)
    const hubs = HUBS.map((h) => hub(h.label))
    const perUsd = HUBS.map((h) => h.perUsd)
    for (let first = 0; first < tokens; first += TOKENS_PER_TX) {
      await write("tokens", [factories, hubs, perUsd, BigInt(first), BigInt(Math.min(TOKENS_PER_TX, tokens - first))])
    }
    return tokens * 2
  }
  return { seedHubPairs, seedTokenPools }
}
