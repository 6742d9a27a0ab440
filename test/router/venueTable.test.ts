/**
 * The router deployed for a venue file of several forks of each family (./forkVenues.ts): it executes on
 * every venue of its table with that venue's own parameters, exact to the base unit (v2 fees from the
 * venue's rule or, on the devnet's v2.5 fork, each pair's own fee read from the pair; v3 pools of another factory with another fee tier, checked against that factory's own
 * QuoterV2), and refuses what is not in its table: pools of factories it was not deployed for, a venue
 * index past its table, callbacks from anything but the pool it just called, a fee rule that would
 * let a pair be paid less than it charges, and a table it cannot trust at construction.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import {
  type AbiFunction,
  type Address,
  encodeDeployData,
  encodeFunctionData,
  maxUint256,
  parseAbi,
  parseUnits,
  toFunctionSelector,
  zeroAddress,
  zeroHash
} from "viem"
import { loadArtifact } from "../../devnet/Artifacts.js"
import { venueTableMismatch } from "../../schema/VenueTable.js"
import { readVenueTable } from "../../src/execution/DeployedVenueTable.js"
import { decodeRouterError, encodeExecute, type RouterStep, StepFlag } from "../../src/execution/RouterPlan.js"
import { v3QuoterV2Abi } from "../support/abis.js"
import { contractAddress, poolByLabel, type PrivateDevnet, startDevnet } from "../support/devnet.js"
import { findRevertData } from "../support/revertData.js"
import type { Wallet } from "../support/wallet.js"
import { deploy, fakePoolAbi, testArtifact } from "./fixtures.js"
import { deployForks, type Forks } from "./forkVenues.js"
import { v2Reserves } from "./poolState.js"
import { type Env, envOf, makePlan, revertOf, sendPlan } from "./support.js"

let devnet: PrivateDevnet
let env: Env
let forks: Forks
let trader: Wallet
let USDC: Address, WETH: Address

beforeAll(async () => {
  devnet = await startDevnet()
  env = envOf(devnet.manifest)
  forks = await deployForks(env, env.trader(7))
  trader = env.trader(2)
  USDC = env.usdc
  WETH = env.token("WETH")
  for (const token of [USDC, WETH]) await trader.approve(token, forks.router, maxUint256)
}, 180_000)
afterAll(() => devnet?.stop())

const usdc = (amount: string) => parseUnits(amount, 6)
const swapFeeAbi = parseAbi(["function swapFee() view returns (uint32)"])

/** UniswapV2Library's formulas with the fee as `part` out of `whole`. */
const v2Out = (amountIn: bigint, reserveIn: bigint, reserveOut: bigint, part: bigint, whole: bigint) =>
  amountIn * (whole - part) * reserveOut / (reserveIn * whole + amountIn * (whole - part))
const v2In = (amountOut: bigint, reserveIn: bigint, reserveOut: bigint, part: bigint, whole: bigint) =>
  reserveIn * amountOut * whole / ((reserveOut - amountOut) * (whole - part)) + 1n

const step = (venue: string, pool: Address, fields: Partial<RouterStep> = {}): RouterStep => ({
  venue: forks.index(venue),
  flags: 0,
  pool,
  tokenIn: USDC,
  tokenOut: WETH,
  fee: 0,
  tickSpacing: 0,
  hooks: zeroAddress,
  amount: usdc("1000"),
  limit: 0n,
  ...fields
})

const sell = (s: RouterStep) =>
  makePlan({ sellToken: s.tokenIn, buyToken: s.tokenOut, recipient: trader.address, amountIn: s.amount, steps: [s] })

/** Sells `step`'s amount and returns what the trader received, as its balance rose. */
const received = async (s: RouterStep) => {
  const [delta] = await trader.deltas(s.tokenOut, [trader.address], () => sendPlan(trader, forks.router, sell(s)))
  return delta!
}

/** What a call reverted with, decoded against the router's ABI (Error(string) included). */
const revertText = (call: Promise<unknown>) =>
  call.then(
    () => "succeeded",
    (error: unknown) => {
      const data = findRevertData(error)
      return data === undefined ? String(error) : decodeRouterError(data)?.text ?? data
    }
  )

describe("a router deployed for a venue file", () => {
  it("holds the file's venues in file order, and start-up would see a reordered file as different", async () => {
    const table = await readVenueTable(trader.public, forks.router)
    expect(venueTableMismatch(forks.file, table)).toBeUndefined()
    const [first, second, ...rest] = forks.file.venues
    expect(venueTableMismatch({ venues: [second, first, ...rest] }, table)).toBe(
      "venue uniswap-v3 (index 0) differs between the router and the venue file"
    )
  })

  it("executes on two v2 forks with different fees and init code hashes, each at its own fee to the unit", async () => {
    const canonical = await v2Reserves(trader, forks.uniswapPair, USDC)
    const out = await received(step("uniswap-v2", forks.uniswapPair))
    expect(out).toBe(v2Out(usdc("1000"), canonical.reserveIn, canonical.reserveOut, 3n, 1000n))

    const fork = await v2Reserves(trader, forks.fork20Pair, USDC)
    const forkOut = await received(step("fork20-v2", forks.fork20Pair))
    expect(forkOut).toBe(v2Out(usdc("1000"), fork.reserveIn, fork.reserveOut, 2n, 1000n))
    // The same trade at 0.3 % would have paid less: the fork's own fee was applied, not Uniswap's.
    expect(forkOut).toBeGreaterThan(v2Out(usdc("1000"), fork.reserveIn, fork.reserveOut, 3n, 1000n))
  })

  it("buys an exact output on the 0.2 % fork for exactly its getAmountIn", async () => {
    const wanted = parseUnits("0.1", 18)
    const { reserveIn, reserveOut } = await v2Reserves(trader, forks.fork20Pair, USDC)
    const plan = makePlan({
      sellToken: USDC,
      buyToken: WETH,
      recipient: trader.address,
      exactOut: true,
      amountIn: usdc("1000"),
      minAmountOut: wanted,
      steps: [step("fork20-v2", forks.fork20Pair, { flags: StepFlag.exactOut, amount: wanted, limit: usdc("1000") })]
    })
    const { event } = await sendPlan(trader, forks.router, plan)
    expect(event.amountIn).toBe(v2In(wanted, reserveIn, reserveOut, 2n, 1000n))
    expect(event.amountOut).toBe(wanted)
  })

  it("reads a per-pair fee from the verified pair through the venue's getter and denominator", async () => {
    const { reserveIn, reserveOut } = await v2Reserves(trader, forks.fork20Pair, USDC)
    // decimals() = 18, out of 9 000: 0.2 %, which is what the fork's pairs charge.
    expect(await received(step("fork20-per-pair", forks.fork20Pair))).toBe(
      v2Out(usdc("1000"), reserveIn, reserveOut, 18n, 9000n)
    )
  })

  it("executes on the v2.5 fork's pairs each at the fee the pair reports, exact in and exact out", async () => {
    const pairs = [["WETH", 25n], ["WBTC", 15n]] as const
    for (const [label, bps] of pairs) {
      const pair = poolByLabel(devnet.manifest, `pairfee-v2:${label}/USDC`).address as Address
      const tokenOut = env.token(label)
      // The fee fixed when the pair was created, as the pair itself reports it.
      expect(await trader.public.readContract({ address: pair, abi: swapFeeAbi, functionName: "swapFee" })).toBe(
        Number(bps)
      )
      const before = await v2Reserves(trader, pair, USDC)
      expect(await received(step("pairfee-v2", pair, { tokenOut }))).toBe(
        v2Out(usdc("1000"), before.reserveIn, before.reserveOut, bps, 10_000n)
      )
      const after = await v2Reserves(trader, pair, USDC)
      const wanted = after.reserveOut / 1000n
      const plan = makePlan({
        sellToken: USDC,
        buyToken: tokenOut,
        recipient: trader.address,
        exactOut: true,
        amountIn: usdc("1000"),
        minAmountOut: wanted,
        steps: [step("pairfee-v2", pair, { tokenOut, flags: StepFlag.exactOut, amount: wanted, limit: usdc("1000") })]
      })
      const { event } = await sendPlan(trader, forks.router, plan)
      expect(event.amountIn).toBe(v2In(wanted, after.reserveIn, after.reserveOut, bps, 10_000n))
      expect(event.amountOut).toBe(wanted)
      // Named under a fixed-fee venue's index, the same pair is not that venue's: the plan cannot pick its fee.
      expect(await revertOf(trader, forks.router, sell(step("lowfee-v2", pair, { tokenOut })))).toBe("ForgedPool")
    }
  })

  it("executes on a second v3 factory's extra fee tier exactly as that factory's QuoterV2 quotes", async () => {
    const amount = usdc("2500")
    const { result } = await trader.public.simulateContract({
      address: forks.secondV3Quoter,
      abi: v3QuoterV2Abi,
      functionName: "quoteExactInputSingle",
      args: [{ tokenIn: USDC, tokenOut: WETH, amountIn: amount, fee: 200, sqrtPriceLimitX96: 0n }]
    })
    expect(await received(step("second-v3", forks.secondV3Pool, { fee: 200, amount }))).toBe(result[0])
  })

  it("executes on the devnet's own v3 factory through the same router", async () => {
    const pool = (await trader.public.readContract({
      address: contractAddress(env.manifest, "v3Factory"),
      abi: loadArtifact("UniswapV3Factory").abi,
      functionName: "getPool",
      args: [USDC, WETH, 500]
    })) as Address
    const amount = usdc("700")
    const { result } = await trader.public.simulateContract({
      address: contractAddress(env.manifest, "v3Quoter"),
      abi: v3QuoterV2Abi,
      functionName: "quoteExactInputSingle",
      args: [{ tokenIn: USDC, tokenOut: WETH, amountIn: amount, fee: 500, sqrtPriceLimitX96: 0n }]
    })
    expect(await received(step("uniswap-v3", pool, { fee: 500, amount }))).toBe(result[0])
  })
})

describe("what is not in the router's table", () => {
  it("refuses pools of factories it was not deployed for, and a venue's pool under another venue's index", async () => {
    const cases: ReadonlyArray<readonly [string, Address, number]> = [
      ["uniswap-v2", forks.strayV2Pair, 0],
      ["fork20-v2", forks.strayV2Pair, 0],
      ["uniswap-v2", forks.fork20Pair, 0],
      ["fork20-v2", forks.uniswapPair, 0],
      ["uniswap-v3", forks.strayV3Pool, 3000],
      ["second-v3", forks.strayV3Pool, 3000],
      ["uniswap-v3", forks.secondV3Pool, 200]
    ]
    for (const [venue, pool, fee] of cases) {
      expect(await revertOf(trader, forks.router, sell(step(venue, pool, { fee }))), `${venue} ${pool}`).toBe(
        "ForgedPool"
      )
    }
  })

  it("refuses a step naming a venue index past its table", async () => {
    const count = forks.file.venues.length
    for (const venue of [count, 255]) {
      const plan = sell({ ...step("uniswap-v2", forks.uniswapPair), venue })
      expect(await revertOf(trader, forks.router, plan), String(venue)).toBe("UnknownVenue")
    }
  })

  it("accepts no callback from a contract it did not just call, whatever pool or manager it poses as", async () => {
    const lp = env.trader(7)
    const fake = await deploy(lp, testArtifact("FakePool"), [USDC, usdc("1000")])
    const v3 = encodeFunctionData({ abi: fakePoolAbi, functionName: "strike", args: [forks.router] })
    const v4 = encodeFunctionData({ abi: fakePoolAbi, functionName: "strikeUnlock", args: [forks.router, "0x"] })
    for (const data of [v3, v4]) {
      expect(await revertText(lp.public.call({ account: lp.account, to: fake, data }))).toBe(
        `UnexpectedCallback(${fake})`
      )
    }
  })
})

describe("a v2 venue's fee rule against what its pairs charge", () => {
  it("a rule below the pair's fee cannot underpay it: the pair's own K check refuses the swap", async () => {
    const plan = sell(step("uniswap-v2-claims-less", forks.uniswapPair))
    const call = trader.public.call({ account: trader.account, to: forks.router, data: encodeExecute(plan) })
    expect(await revertText(call)).toBe("Error(UniswapV2: K)")
  })

  it("a rule above the pair's fee pays the taker by the rule, exactly, not by the pair", async () => {
    const { reserveIn, reserveOut } = await v2Reserves(trader, forks.fork20Pair, USDC)
    expect(await received(step("fork20-rule-above", forks.fork20Pair))).toBe(
      v2Out(usdc("1000"), reserveIn, reserveOut, 3n, 1000n)
    )
  })

  it("a per-pair fee of 100 % or a pair without the getter is refused by name", async () => {
    for (const venue of ["uniswap-v2-whole-fee", "uniswap-v2-no-getter"]) {
      expect(await revertOf(trader, forks.router, sell(step(venue, forks.uniswapPair))), venue).toBe("BadPairFee")
    }
  })
})

describe("a venue table the router refuses to be constructed with", () => {
  const v2 = {
    family: 0,
    registry: "0x1111111111111111111111111111111111111111",
    deployer: "0x1111111111111111111111111111111111111111",
    initCodeHash: `0x${"11".repeat(32)}`,
    fee: 3000,
    feeGetter: "0x00000000",
    feeDenominator: 0,
    swapCallback: "0x00000000"
  } as const
  const tables = {
    empty: [],
    "no registry": [{ ...v2, registry: zeroAddress }],
    "v2 without an init code hash": [{ ...v2, initCodeHash: zeroHash }],
    "a fixed fee of 100 %": [{ ...v2, fee: 1_000_000 }],
    "a per-pair fee out of 0": [{ ...v2, feeGetter: "0x313ce567" }],
    "an unknown family": [{ ...v2, family: 4 }],
    "a callback name on a venue other than v3": [{ ...v2, swapCallback: "0x23a69e75" }]
  }
  const construct = (venues: ReadonlyArray<object>) => {
    const artifact = loadArtifact("TradeRouter")
    const data = encodeDeployData({
      abi: artifact.abi,
      bytecode: artifact.bytecode,
      args: [{ permit2: contractAddress(env.manifest, "permit2"), usdc: USDC, nativeMode: 1, venues }]
    } as never)
    return revertText(trader.public.call({ account: trader.account, data }))
  }
  it.each(Object.entries(tables))("%s", async (_, venues) => {
    expect(await construct(venues)).toMatch(/^InvalidVenueTable\(\d+\)$/)
  })

  it("a v3 callback name equal to any of the router's own functions (every one in its compiled ABI)", async () => {
    const v3 = { ...v2, family: 1, fee: 0 }
    const own = loadArtifact("TradeRouter").abi.filter((item) => item.type === "function")
    expect(own.length).toBeGreaterThan(10)
    for (const fn of own) {
      const name = toFunctionSelector(fn as AbiFunction)
      expect(await construct([v2, { ...v3, swapCallback: name }]), fn.type === "function" ? fn.name : "").toBe(
        "InvalidVenueTable(1)"
      )
    }
    // A name that is none of them (PancakeSwap's) is accepted: the constructor returns the runtime code.
    expect(
      await construct([v2, { ...v3, swapCallback: toFunctionSelector("pancakeV3SwapCallback(int256,int256,bytes)") }])
    )
      .toBe("succeeded")
  })
})
