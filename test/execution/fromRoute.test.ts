/**
 * Plans from route search, turned into router plans by FromRoute, executed for real on a private devnet
 * (fresh accounts, real transactions): each delivers exactly what src/routing priced, to the base unit,
 * for a split USDC sell funded by native value, a graph plan between two non-USDC tokens funded by
 * approval, and an exact-output buy. Then the router's WHOLE_BALANCE amount: it sells exactly the
 * caller's balance and never anyone else's.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { type Address, maxUint256, parseUnits } from "viem"
import { routerPlanOf, type RouterVenues, routerVenuesOf } from "../../src/execution/FromRoute.js"
import { Funding, type RouterPlan, WHOLE_BALANCE } from "../../src/execution/RouterPlan.js"
import { findRoute, type RouteRequest } from "../../src/routing/FindRoute.js"
import { defaultHopGas, defaultPathGas } from "../../src/routing/Gas.js"
import { type Market, marketFromIndex } from "../../src/routing/Market.js"
import type { Plan } from "../../src/routing/Plan.js"
import { makePlan, poolStep, revertOf, sendPlan } from "../router/support.js"
import { contractAddress, freshAccount, type PrivateDevnet, startDevnet, tokenAddress } from "../support/devnet.js"
import { addressOf } from "../support/hex.js"
import { indexRuntime, synced } from "../support/services.js"
import { type Wallet, walletFor } from "../support/wallet.js"

let devnet: PrivateDevnet
let router: Address
let venues: RouterVenues
const lower = (address: string) => addressOf(address)

beforeAll(async () => {
  devnet = await startDevnet()
  router = contractAddress(devnet.manifest, "router")
  venues = routerVenuesOf(devnet.manifest.venues!)
}, 120_000)
afterAll(() => devnet?.stop())

/** The index's market as of now (each test re-reads it: earlier tests moved prices). */
const marketNow = async (): Promise<Market> => {
  const runtime = indexRuntime(devnet.manifest)
  try {
    return await runtime.runPromise(Effect.map(synced, (snapshot) => marketFromIndex(snapshot.state)))
  } finally {
    await runtime.dispose()
  }
}

const routeOf = (market: Market, tokenIn: Address, tokenOut: Address, side: RouteRequest["side"], amount: bigint) => {
  const usdc = lower(contractAddress(devnet.manifest, "usdc"))
  const hubs = [usdc, lower(tokenAddress(devnet.manifest, "WETH")), lower(tokenAddress(devnet.manifest, "WBTC"))]
  const { best } = findRoute({
    market,
    tokenIn: lower(tokenIn),
    tokenOut: lower(tokenOut),
    side,
    amount,
    hubs,
    maxHops: 2,
    maxSplits: 4,
    // Every venue of the file: the devnet's router is deployed for all of them, forks included.
    allowVenue: () => true,
    gas: { perHop: defaultHopGas, perPath: defaultPathGas, gasPriceWei: 0n, tokenPrice: null }
  })
  if (best === null) throw new Error("no route")
  return best
}

const toRouter = (market: Market, plan: Plan, wallet: Wallet, funding: RouterPlan["funding"]) =>
  routerPlanOf(plan, market.pool, venues, {
    recipient: wallet.address,
    funding,
    deadline: BigInt(Math.floor(Date.now() / 1000) + 600),
    quoteId: "q_fromroute",
    slippageBps: 0n
  })

const freshWallet = async () => walletFor(devnet.manifest, await freshAccount(devnet.manifest, "5000000"))

describe("FromRoute plans execute as priced", () => {
  it("a large USDC → WETH split funded by native value delivers the routed output exactly", async () => {
    const market = await marketNow()
    const usdc = contractAddress(devnet.manifest, "usdc")
    const plan = routeOf(market, usdc, tokenAddress(devnet.manifest, "WETH"), "exactIn", parseUnits("2000000", 6))
    expect(plan.legs.length).toBeGreaterThan(1)
    const trader = await freshWallet()
    const { event } = await sendPlan(trader, router, toRouter(market, plan, trader, Funding.native))
    expect(event.amountIn).toBe(plan.amountIn)
    expect(event.amountOut).toBe(plan.amountOut)
  })

  it("a WETH → WBTC graph plan funded by approval, then an exact-output buy, each exactly as priced", async () => {
    const trader = await freshWallet()
    const usdc = contractAddress(devnet.manifest, "usdc")
    const weth = tokenAddress(devnet.manifest, "WETH")
    const wbtc = tokenAddress(devnet.manifest, "WBTC")
    let market = await marketNow()
    await sendPlan(
      trader,
      router,
      toRouter(market, routeOf(market, usdc, weth, "exactIn", parseUnits("50000", 6)), trader, Funding.native)
    )
    await trader.approve(weth, router, maxUint256)
    market = await marketNow()
    const graph = routeOf(market, weth, wbtc, "exactIn", parseUnits("5", 18))
    const { event } = await sendPlan(trader, router, toRouter(market, graph, trader, Funding.approval))
    expect(event.amountOut).toBe(graph.amountOut)

    market = await marketNow()
    const exactOut = routeOf(market, usdc, weth, "exactOut", parseUnits("3", 18))
    const executed = await sendPlan(trader, router, toRouter(market, exactOut, trader, Funding.native))
    expect(executed.event.amountOut).toBe(exactOut.amountOut)
    expect(executed.event.amountIn).toBe(exactOut.amountIn)
  })
})

describe("WHOLE_BALANCE sells exactly the caller's own balance", () => {
  it("sells all the caller holds, and nothing of an approving bystander", async () => {
    const [seller, bystander] = [await freshWallet(), await freshWallet()]
    const usdc = contractAddress(devnet.manifest, "usdc")
    const weth = tokenAddress(devnet.manifest, "WETH")
    for (const wallet of [seller, bystander]) {
      const market = await marketNow()
      const buy = routeOf(market, usdc, weth, "exactIn", parseUnits("10000", 6))
      await sendPlan(wallet, router, toRouter(market, buy, wallet, Funding.native))
      await wallet.approve(weth, router, maxUint256)
    }
    const held = await seller.balanceOf(weth)
    const bystanderBefore = await bystander.balanceOf(weth)
    const sellAll = makePlan({
      sellToken: weth,
      buyToken: usdc,
      recipient: seller.address,
      amountIn: WHOLE_BALANCE,
      steps: [poolStep(devnet.manifest, "v2:WETH/USDC", weth, WHOLE_BALANCE)]
    })
    const { event } = await sendPlan(seller, router, sellAll)
    expect(event.amountIn).toBe(held)
    expect(await seller.balanceOf(weth)).toBe(0n)
    expect(await bystander.balanceOf(weth)).toBe(bystanderBefore)
  })

  it("a caller holding none cannot reach an approving holder's balance; native and exact-output plans refuse it", async () => {
    const [empty, holder] = [await freshWallet(), await freshWallet()]
    const usdc = contractAddress(devnet.manifest, "usdc")
    const weth = tokenAddress(devnet.manifest, "WETH")
    const market = await marketNow()
    await sendPlan(
      holder,
      router,
      toRouter(market, routeOf(market, usdc, weth, "exactIn", parseUnits("5000", 6)), holder, Funding.native)
    )
    await holder.approve(weth, router, maxUint256)
    const before = await holder.balanceOf(weth)
    const sellAll = (extra: Partial<RouterPlan>, sellToken: Address = weth, buyToken: Address = usdc) =>
      makePlan({
        sellToken,
        buyToken,
        recipient: empty.address,
        amountIn: WHOLE_BALANCE,
        steps: [poolStep(devnet.manifest, "v2:WETH/USDC", sellToken, WHOLE_BALANCE)],
        ...extra
      })
    expect(await revertOf(empty, router, sellAll({}))).toBe("InvalidPlan")
    expect(await revertOf(empty, router, sellAll({ funding: Funding.permit2 }))).toBe("InvalidPlan")
    expect(await revertOf(holder, router, sellAll({ exactOut: true, recipient: holder.address }))).toBe("InvalidPlan")
    expect(await revertOf(empty, router, sellAll({ funding: Funding.native }, usdc, weth), { value: 0n })).toBe(
      "InvalidPlan"
    )
    expect(await holder.balanceOf(weth)).toBe(before)
  })
})
