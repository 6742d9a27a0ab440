/**
 * Router tests' shared pieces: a private devnet (trades move prices), plan and step builders with the
 * defaults a quote would fill in, and one way to send a plan with viem and read its `PlanExecuted`.
 */
import {
  type Address,
  decodeErrorResult,
  erc20Abi,
  type Hex,
  type PrivateKeyAccount,
  type TransactionReceipt,
  zeroAddress
} from "viem"
import { DevnetVenue } from "../../devnet/router.js"
import type { Manifest } from "../../schema/Manifest.js"
import {
  decodePlanExecuted,
  encodeExecute,
  Funding,
  type PlanExecuted,
  planValue,
  quoteTag,
  routerAbi,
  type RouterPlan,
  type RouterStep
} from "../../src/execution/RouterPlan.js"
import { contractAddress, manifestAccount, poolByLabel, tokenAddress } from "../support/devnet.js"
import { findRevertData } from "../support/revertData.js"
import { type Wallet, walletFor } from "../support/wallet.js"
import { v2ExactIn } from "./poolState.js"

export const DYNAMIC_FEE = 0x800000

/** A v2/v3/v4 step for a seeded pool, by its manifest label; flags and limits left to the caller. */
export const poolStep = (
  manifest: Manifest,
  label: string,
  tokenIn: Address,
  amount: bigint,
  extra: Partial<RouterStep> = {}
): RouterStep => {
  const pool = poolByLabel(manifest, label)
  const tokenOut = (pool.token0.toLowerCase() === tokenIn.toLowerCase() ? pool.token1 : pool.token0) as Address
  const venue = pool.venue === "v2" ? DevnetVenue.v2 : pool.venue === "v3" ? DevnetVenue.v3 : DevnetVenue.v4
  return {
    venue,
    flags: 0,
    pool: pool.address as Address,
    tokenIn,
    tokenOut,
    fee: pool.venue === "v2" ? 0 : pool.fee ?? DYNAMIC_FEE,
    tickSpacing: pool.venue === "v4" ? pool.tickSpacing ?? 0 : 0,
    hooks: (pool.venue === "v4" ? pool.hooks ?? zeroAddress : zeroAddress) as Address,
    amount,
    limit: 0n,
    ...extra
  }
}

export const curveStep = (
  manifest: Manifest,
  tokenIn: Address,
  tokenOut: Address,
  amount: bigint,
  extra: Partial<RouterStep> = {}
): RouterStep => ({
  venue: DevnetVenue.curve,
  flags: 0,
  pool: contractAddress(manifest, "launchpad"),
  tokenIn,
  tokenOut,
  fee: 0,
  tickSpacing: 0,
  hooks: zeroAddress,
  amount,
  limit: 0n,
  ...extra
})

let quoteCounter = 0

export const makePlan = (
  fields: Pick<RouterPlan, "sellToken" | "buyToken" | "recipient" | "amountIn" | "steps"> & Partial<RouterPlan>
): RouterPlan => ({
  quoteTag: quoteTag(`q_${(++quoteCounter).toString(16).padStart(8, "0")}`),
  funding: Funding.approval,
  exactOut: false,
  minAmountOut: 0n,
  deadline: BigInt(Math.floor(Date.now() / 1000) + 3600),
  ...fields
})

/** A one-step v2 USDC -> WETH sell on the seeded pair, its least output the pair's exact getAmountOut. */
export const wethOnV2 = async (env: Env, trader: Wallet, amountIn: bigint, fields: Partial<RouterPlan> = {}) => {
  const [USDC, WETH] = [env.usdc, env.token("WETH")]
  const expected = await v2ExactIn(trader, poolByLabel(env.manifest, "v2:WETH/USDC").address as Address, USDC, amountIn)
  const plan = makePlan({
    sellToken: USDC,
    buyToken: WETH,
    recipient: trader.address,
    amountIn,
    minAmountOut: expected,
    steps: [poolStep(env.manifest, "v2:WETH/USDC", USDC, amountIn)],
    ...fields
  })
  return { plan, expected }
}

export interface Env {
  readonly manifest: Manifest
  readonly router: Address
  readonly usdc: Address
  readonly token: (label: string) => Address
  readonly trader: (i: number) => Wallet
}

export const envOf = (manifest: Manifest): Env => ({
  manifest,
  router: contractAddress(manifest, "router"),
  usdc: contractAddress(manifest, "usdc"),
  token: (label) => tokenAddress(manifest, label),
  trader: (i) => walletFor(manifest, manifestAccount(manifest, i))
})

export const walletOf = (manifest: Manifest, account: PrivateKeyAccount) => walletFor(manifest, account)

export interface Executed {
  readonly receipt: TransactionReceipt
  readonly event: PlanExecuted
}

/** Sends `plan` from `wallet` exactly as an integrator would: raw calldata from the encoder. */
export const sendPlan = async (
  wallet: Wallet,
  router: Address,
  plan: RouterPlan,
  options: { readonly data?: Hex; readonly value?: bigint; readonly gas?: bigint } = {}
): Promise<Executed> => {
  const hash = await wallet.wallet.sendTransaction({
    account: wallet.account,
    chain: wallet.chain,
    to: router,
    data: options.data ?? encodeExecute(plan),
    value: options.value ?? planValue(plan),
    gas: options.gas ?? 3_000_000n
  })
  const receipt = await wallet.public.waitForTransactionReceipt({ hash })
  if (receipt.status !== "success") throw new Error(`plan reverted (${hash})`)
  // The router emits only PlanExecuted (anonymous): every log of its address must decode as one.
  const events = receipt.logs.filter((log) => log.address.toLowerCase() === router.toLowerCase())
    .map(decodePlanExecuted)
  if (events.length !== 1) throw new Error(`expected one PlanExecuted, got ${events.length}`)
  return { receipt, event: events[0]! }
}

/** The router's custom error a plan reverts with, found by simulating the same call. */
export const revertOf = async (
  wallet: Wallet,
  router: Address,
  plan: RouterPlan,
  options: { readonly data?: Hex; readonly value?: bigint } = {}
): Promise<string> => {
  try {
    await wallet.public.call({
      account: wallet.account,
      to: router,
      data: options.data ?? encodeExecute(plan),
      value: options.value ?? planValue(plan)
    })
  } catch (error) {
    const data = findRevertData(error)
    if (data === undefined) return `no revert data: ${String(error).slice(0, 200)}`
    try {
      return decodeErrorResult({ abi: routerAbi, data }).errorName
    } catch {
      return data
    }
  }
  return "succeeded"
}

/** Balances of `owners` in `tokens`, as a flat list in that order. */
export const balancesOf = (wallet: Wallet, tokens: ReadonlyArray<Address>, owners: ReadonlyArray<Address>) =>
  Promise.all(
    tokens.flatMap((token) =>
      owners.map((owner) =>
        wallet.public.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [owner] })
      )
    )
  )
