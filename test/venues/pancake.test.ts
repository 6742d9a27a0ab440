/**
 * The PancakeSwap v3 venue (`pancake-v3`: PancakeSwap's factory and pool bytecode, pools made by a separate
 * pool deployer, callback `pancakeV3SwapCallback`) through the whole service on a private devnet: quotes
 * restricted to it execute as priced with receipt `pass`, exactIn and exactOut; excluding it removes its
 * routes. And the router, as an attacker would try it: the fork's callback name from anything but the
 * verified pool it is swapping with, pools of a PancakeSwap factory that is not in the venue file, and
 * each venue's pools under the other's index.
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { type Address, encodeFunctionData, getAddress, parseUnits, zeroAddress } from "viem"
import { loadArtifact } from "../../devnet/Artifacts.js"
import { DevnetVenue } from "../../devnet/router.js"
import type { RouterStep } from "../../src/execution/RouterPlan.js"
import { decodeRouterError } from "../../src/execution/RouterPlan.js"
import { deploy, fakePoolAbi, testArtifact } from "../router/fixtures.js"
import { envOf, makePlan, revertOf } from "../router/support.js"
import { contractAddress, poolByLabel, tokenAddress } from "../support/devnet.js"
import { addressOf } from "../support/hex.js"
import { findRevertData } from "../support/revertData.js"
import { answerOf, harnessPerFile, takerOn } from "../swap/harness.js"

const { harness, ops, trade } = harnessPerFile()
let USDC: Address
let WETH: Address

beforeAll(async () => {
  USDC = tokenAddress(harness.devnet.manifest, "USDC")
  WETH = tokenAddress(harness.devnet.manifest, "WETH")
})

const hopVenues = (quoted: { best: { legs: ReadonlyArray<{ hops: ReadonlyArray<{ venue: string }> }> } }) =>
  new Set(quoted.best.legs.flatMap((leg) => leg.hops.map((hop) => hop.venue)))
const routeVenues = (quoted: { routes: ReadonlyArray<{ routeId: string }> }) =>
  new Set(quoted.routes.flatMap((route) => route.routeId.split("|").slice(1).map((hop) => hop.split(":")[0])))

describe("trading on PancakeSwap v3", () => {
  it("an exactIn buy on it alone executes as priced, receipt pass, safety verdict ok", async () => {
    const taker = await takerOn(harness)
    const { delivered, quoted } = await trade(taker, { sell: USDC, buy: WETH, amount: "2500", venues: ["pancake-v3"] })
    expect([...hopVenues(quoted)]).toEqual(["pancake-v3"])
    expect(quoted.safety?.verdict).toBe("ok")
    expect(delivered).toBe(BigInt(quoted.best.amountOutQuotedRaw))
  })

  it("an exactOut buy on it delivers exactly the amount asked, receipt pass", async () => {
    const taker = await takerOn(harness)
    const { delivered, quoted } = await trade(taker, {
      sell: USDC,
      buy: WETH,
      amount: "0.25",
      side: "exactOut",
      venues: ["pancake-v3"]
    })
    expect([...hopVenues(quoted)]).toEqual(["pancake-v3"])
    expect(delivered).toBe(parseUnits("0.25", 18))
  })

  it("excluding it removes every route through it", async () => {
    const request = { sell: USDC, buy: WETH, amount: "400000" }
    const all = answerOf(await ops.quote(request))
    expect(routeVenues(all).has("pancake-v3")).toBe(true)
    const without = answerOf(await ops.quote({ ...request, excludeVenues: ["pancake-v3"] }))
    expect(routeVenues(without).has("pancake-v3") || hopVenues(without).has("pancake-v3")).toBe(false)
    expect(without.routes.length).toBeGreaterThan(0)
  })
})

describe("the router and PancakeSwap v3's callback", () => {
  const env = () => envOf(harness.devnet.manifest)
  const step = (venue: number, pool: Address, fee: number): RouterStep => ({
    venue,
    flags: 0,
    pool,
    tokenIn: USDC,
    tokenOut: WETH,
    fee,
    tickSpacing: 0,
    hooks: zeroAddress,
    amount: parseUnits("100", 6),
    limit: 0n
  })
  const sell = (s: RouterStep) =>
    makePlan({ sellToken: USDC, buyToken: WETH, recipient: env().trader(2).address, amountIn: s.amount, steps: [s] })
  const revertText = (call: Promise<unknown>) =>
    call.then(() => "succeeded", (error: unknown) => {
      const data = findRevertData(error)
      return data === undefined ? String(error) : decodeRouterError(data)?.text ?? data
    })
  const strike = (from: Address, signature: string, fake: Address) =>
    env().trader(7).public.call({
      account: from,
      to: fake,
      data: encodeFunctionData({ abi: fakePoolAbi, functionName: "strikeNamed", args: [env().router, signature] })
    })

  it("refuses the fork's callback from an unverified pool, and from a verified one outside its swap", async () => {
    const lp = env().trader(7)
    const fake = await deploy(lp, testArtifact("FakePool"), [USDC, parseUnits("1000", 6)])
    for (
      const signature of ["pancakeV3SwapCallback(int256,int256,bytes)", "uniswapV3SwapCallback(int256,int256,bytes)"]
    ) {
      expect(await revertText(strike(lp.address, signature, fake)), signature).toBe(`UnexpectedCallback(${fake})`)
    }
    // The real pool's own address, calling the router directly: no swap with it is in flight.
    const pool = getAddress(poolByLabel(env().manifest, "pancake-v3:WETH/USDC:500").address)
    const direct = await revertText(lp.public.call({
      account: pool,
      to: env().router,
      data: encodeFunctionData({
        abi: loadArtifact("PancakeV3Liquidity").abi,
        functionName: "pancakeV3SwapCallback",
        args: [1n, 1n, "0x"]
      })
    }))
    expect(direct).toBe(`UnexpectedCallback(${pool})`)
  })

  it("refuses pools of a PancakeSwap factory not in the file, and each venue's pools under the other's index", async () => {
    const lp = env().trader(7)
    const poolDeployer = await deploy(lp, loadArtifact("PancakeV3PoolDeployer"), [
      loadArtifact("PancakeV3Pool").bytecode
    ])
    const factory = await deploy(lp, loadArtifact("PancakeV3Factory"), [poolDeployer])
    await lp.write(poolDeployer, loadArtifact("PancakeV3PoolDeployer").abi, "setFactoryAddress", [factory])
    await lp.write(factory, loadArtifact("PancakeV3Factory").abi, "createPool", [USDC, WETH, 500])
    const stray = (await lp.public.readContract({
      address: factory,
      abi: loadArtifact("PancakeV3Factory").abi,
      functionName: "getPool",
      args: [USDC, WETH, 500]
    })) as Address
    const pancake = addressOf(poolByLabel(env().manifest, "pancake-v3:WETH/USDC:500").address)
    const uniswap = addressOf(poolByLabel(env().manifest, "v3:WETH/USDC:500").address)
    const cases: ReadonlyArray<readonly [number, Address]> = [
      [DevnetVenue.pancakeV3, stray],
      [DevnetVenue.pancakeV3, uniswap],
      [DevnetVenue.v3, pancake],
      [DevnetVenue.forkV3, pancake]
    ]
    for (const [venue, pool] of cases) {
      expect(await revertOf(lp, env().router, sell(step(venue, pool, 500))), `${venue} ${pool}`).toBe("ForgedPool")
    }
    expect(contractAddress(env().manifest, "pancakeV3Factory")).not.toBe(factory)
  })
})
