/**
 * Tokens that move their v2 pair's reserves during a holder's own sell (contracts/router/test/): a
 * swap-back tax token (fees collected on buys and sells, sold through the same pair on a sell; one taxed
 * both ways, one taxing buys only) and a pool-burn token (a share of the pair's balance burnt and synced
 * on a sell). Each gets a Uniswap v2 pair with USDC, seeded by the owner. Beside them, Uniswap's own
 * Router02, the reference a sell through the router is held to, and an anvil snapshot helper so both
 * routers trade from the same state.
 */
import { type Address, getAddress, maxUint256, parseAbi, parseUnits, zeroAddress } from "viem"
import { loadArtifact } from "../../devnet/Artifacts.js"
import { v2Router02Artifact } from "../../devnet/npmArtifacts.js"
import { contractAddress } from "../support/devnet.js"
import type { Wallet } from "../support/wallet.js"
import { deploy, testArtifact } from "./fixtures.js"
import type { Env } from "./support.js"

export const router02Abi = parseAbi([
  "function swapExactTokensForTokensSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)"
])
const setPairAbi = parseAbi(["function setPair(address pair)"])

export interface MovingToken {
  readonly name: string
  readonly token: Address
  readonly pair: Address
}

export interface ReserveMoving {
  readonly router02: Address
  readonly treasury: Address
  /** 3 % on buys and sells, swapped back on a sell once 10 tokens are collected */
  readonly swapBack: MovingToken
  /** 3 % on buys only, swapped back on a sell the same way */
  readonly swapBackBuyTax: MovingToken
  /** 1 % of the pair's balance burnt and synced on every sell, no tax */
  readonly pairBurn: MovingToken
}

const SUPPLY = parseUnits("1000000000", 18)
const TOKEN_LIQUIDITY = parseUnits("200000", 18)
const USDC_LIQUIDITY = parseUnits("20000", 6)

/** A v2 pair of `token` and USDC on the devnet's Uniswap v2 factory, seeded 0.1 USDC a token. */
const seedPair = async (env: Env, lp: Wallet, token: Address) => {
  const factory = contractAddress(env.manifest, "v2Factory")
  const factoryAbi = loadArtifact("UniswapV2Factory").abi
  await lp.write(factory, factoryAbi, "createPair", [token, env.usdc])
  const pair = getAddress(
    (await lp.public.readContract({
      address: factory,
      abi: factoryAbi,
      functionName: "getPair",
      args: [token, env.usdc]
    })) as Address
  )
  await lp.transfer(token, pair, TOKEN_LIQUIDITY)
  await lp.transfer(env.usdc, pair, USDC_LIQUIDITY)
  await lp.write(pair, loadArtifact("UniswapV2Pair").abi, "mint", [lp.address])
  await lp.write(token, setPairAbi, "setPair", [pair])
  return pair
}

export const deployReserveMoving = async (env: Env, lp: Wallet): Promise<ReserveMoving> => {
  const treasury = getAddress(`0x${"7e".repeat(20)}`)
  const router02 = await deploy(lp, v2Router02Artifact(), [contractAddress(env.manifest, "v2Factory"), zeroAddress])
  const threshold = parseUnits("10", 18)
  const moving = async (name: string, artifact: string, args: ReadonlyArray<unknown>): Promise<MovingToken> => {
    const token = await deploy(lp, testArtifact(artifact), args)
    return { name, token, pair: await seedPair(env, lp, token) }
  }
  return {
    router02,
    treasury,
    swapBack: await moving("swap-back tax token", "SwapBackToken", [SUPPLY, 300, 300, threshold, treasury]),
    swapBackBuyTax: await moving("swap-back token taxing buys", "SwapBackToken", [SUPPLY, 300, 0, threshold, treasury]),
    pairBurn: await moving("pool-burn token", "PairBurnToken", [SUPPLY, 100])
  }
}

/** Approves every spender for every token from `wallet`. */
export const approveAll = async (wallet: Wallet, tokens: ReadonlyArray<Address>, spenders: ReadonlyArray<Address>) => {
  for (const token of tokens) {
    for (const spender of spenders) await wallet.approve(token, spender, maxUint256)
  }
}

/** Runs `action` from an anvil snapshot and returns to it afterwards: the next action sees the same state. */
export const fromSnapshot = async <A>(wallet: Wallet, action: () => Promise<A>): Promise<A> => {
  const id = await wallet.test.snapshot()
  try {
    return await action()
  } finally {
    await wallet.test.revert({ id })
  }
}
