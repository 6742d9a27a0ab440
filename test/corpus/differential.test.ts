/**
 * For every corpus design, a sell through the service's router (TradeRouter.execute, one step on the
 * design's pool) and the same sell through Uniswap's own periphery (Router02's fee-on-transfer function
 * for the v2 designs, PoolSwapTest for the v4 ones), each from the same chain state (a snapshot the
 * chain is put back to), deliver the same USDC to the unit.
 */
import { type Address, decodeErrorResult, maxUint256, zeroAddress } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DevnetVenue } from "../../devnet/router.js"
import { encodeExecute, routerAbi, type RouterPlan, type RouterStep } from "../../src/execution/RouterPlan.js"
import { makePlan, sendPlan } from "../router/support.js"
import { clientsFor, contractAddress, type PrivateDevnet, startDevnet } from "../support/devnet.js"
import { findRevertData } from "../support/revertData.js"
import { swapOnRouter02 } from "../support/router02.js"
import type { Wallet } from "../support/wallet.js"
import { corpus, type CorpusEntry, ROUND_TRIP_USDC } from "./corpus.js"
import { type Corpus, deployCorpus, fundedWallet } from "./deploy.js"
import { swapOnPoolSwapTest } from "./v4Pools.js"

let devnet: PrivateDevnet
let deployment: Corpus

beforeAll(async () => {
  devnet = await startDevnet()
  deployment = await deployCorpus(devnet.manifest)
}, 120_000)
afterAll(() => devnet?.stop())

/** The design's one pool as a router step selling `amount` of its token for USDC. */
const sellStep = (entry: CorpusEntry, amount: bigint): RouterStep => {
  const { token, pair, pool } = deployment.listed[entry.name]
  const common = { flags: 0, tokenIn: token, tokenOut: deployment.usdc, amount, limit: 0n }
  return entry.venue === "v2"
    ? { ...common, venue: DevnetVenue.v2, pool: pair!, fee: 0, tickSpacing: 0, hooks: zeroAddress }
    : {
      ...common,
      venue: DevnetVenue.v4,
      pool: contractAddress(devnet.manifest, "v4PoolManager"),
      fee: pool!.key.fee,
      tickSpacing: pool!.key.tickSpacing,
      hooks: pool!.hook
    }
}

/** Why `plan` would revert (the router's error or the string a pool reverted with), if it would. */
const revertReason = async (wallet: Wallet, router: Address, plan: RouterPlan) => {
  try {
    await wallet.public.call({ account: wallet.account, to: router, data: encodeExecute(plan) })
    return undefined
  } catch (error) {
    const data = findRevertData(error)
    if (data === undefined) return String(error).slice(0, 200)
    const decoded = decodeErrorResult({ abi: routerAbi, data })
    return `${decoded.errorName}(${(decoded.args ?? []).join(", ")})`
  }
}

/** USDC delivered by the service's router for selling `amount`, or why its plan reverted. */
const sellOnTradeRouter = async (entry: CorpusEntry, wallet: Wallet, token: Address, amount: bigint) => {
  const router = contractAddress(devnet.manifest, "router")
  await wallet.approve(token, router, maxUint256)
  const plan = makePlan({
    sellToken: token,
    buyToken: deployment.usdc,
    recipient: wallet.address,
    amountIn: amount,
    steps: [sellStep(entry, amount)]
  })
  const why = await revertReason(wallet, router, plan)
  if (why !== undefined) return `reverted: ${why}`
  const [delivered] = await wallet.deltas(deployment.usdc, [wallet.address], () => sendPlan(wallet, router, plan))
  return delivered!
}

const sellOnUniswap = async (entry: CorpusEntry, wallet: Wallet, token: Address, amount: bigint) => {
  const listed = deployment.listed[entry.name]
  const sold = entry.venue === "v2"
    ? await swapOnRouter02(wallet, deployment.router02, token, deployment.usdc, amount)
    : await swapOnPoolSwapTest(devnet.manifest, wallet, listed.pool!, token, amount)
  return sold.received
}

describe.each(corpus)("$name ($design)", (entry) => {
  it("a sell delivers the same USDC through the service's router as through Uniswap, from the same state", async () => {
    const { test } = clientsFor(devnet.manifest)
    const start = await test.snapshot()
    try {
      const wallet = await fundedWallet(devnet.manifest, "1000")
      const { token, pool } = deployment.listed[entry.name]
      if (entry.venue === "v2") {
        await swapOnRouter02(wallet, deployment.router02, deployment.usdc, token, ROUND_TRIP_USDC)
      } else await swapOnPoolSwapTest(devnet.manifest, wallet, pool!, deployment.usdc, ROUND_TRIP_USDC)
      const amount = await wallet.balanceOf(token)
      const bought = await test.snapshot()
      const viaUniswap = await sellOnUniswap(entry, wallet, token, amount)
      await test.revert({ id: bought })
      const viaRouter = await sellOnTradeRouter(entry, wallet, token, amount)
      expect(viaRouter).toBe(viaUniswap)
    } finally {
      await test.revert({ id: start })
    }
  })
})
