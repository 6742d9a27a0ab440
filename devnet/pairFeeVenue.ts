/**
 * The devnet's "v2.5" venue, `pairfee-v2`: a Uniswap v2 fork whose pairs each keep the fee their factory
 * set when they were created (Uniswap v2-core's sources modified as scripts/v25-fork-sources.ts says,
 * compiled by solc 0.5.16; no npm package ships such a fork's bytecode). The factory's `feeToSetter` sets
 * the fee for the next pair (`setNewPairSwapFee`, basis points); a pair reports its own with `swapFee()`,
 * out of 10000, and nothing changes it afterwards.
 */
import { Effect } from "effect"
import type { Address } from "viem"
import { loadArtifact } from "./Artifacts.js"
import type { Tx } from "./Tx.js"

export const PAIR_FEE_V2 = {
  id: "pairfee-v2",
  /** The venue file's fee rule: the pair's getter and what its value is out of. */
  feeRule: { getter: "swapFee()", denominator: 10_000 }
} as const

export const deployPairFeeVenue = Effect.fn("deployPairFeeVenue")(function*(tx: Tx, deployer: Address) {
  return yield* tx.deploy(deployer, loadArtifact("UniswapV25Factory"), [deployer], "UniswapV25Factory")
})

/** Creates `tokenA`/`tokenB` on the venue with a fee of `feeBps`, fixed for the pair's life. */
export const createPairWithFee = Effect.fn("createPairWithFee")(
  function*(tx: Tx, deployer: Address, factory: Address, tokens: readonly [Address, Address], feeBps: number) {
    const contract = { address: factory, abi: loadArtifact("UniswapV25Factory").abi }
    yield* tx.write(deployer, contract, "setNewPairSwapFee", [feeBps])
    yield* tx.write(deployer, contract, "createPair", [...tokens])
  }
)
