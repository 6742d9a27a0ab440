/**
 * A token launched after start-up by a plain viem script is quoted and swapped on its bonding curve:
 * the index's curve (net flows + the launchpad's constants) equals `curveReserves` on chain, quotes
 * equal the launchpad's own `buy`/`sell` at the quote's block to the base unit, swaps through the
 * router deliver exactly the simulation, an order past graduation is refused, and once graduated the
 * token routes through its v2 pair.
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, HashMap, Option } from "effect"
import { type Address, getAddress, maxUint256, parseAbi, parseEventLogs } from "viem"
import { ChainIndex } from "../../src/indexer/ChainIndex.js"
import { Launchpads } from "../../src/indexer/Launchpads.js"
import { curvePoolsOf } from "../../src/routing/CurvePools.js"
import { clientsFor, contractAddress, freshAccount, tokenAddress } from "../support/devnet.js"
import { addressOf } from "../support/hex.js"
import { answerOf, errorOf, harnessPerFile, takerOn } from "./harness.js"

const launchpadAbi = parseAbi([
  "event TokenCreated(address indexed token, address indexed creator, string name, string symbol, uint256 supply)",
  "event Graduated(address indexed token, address indexed pool, uint256 usdcLiquidity, uint256 tokenLiquidity)",
  "function createToken(string name, string symbol) returns (address)",
  "function buy(address token, uint256 usdcIn, uint256 minTokensOut) returns (uint256)",
  "function sell(address token, uint256 tokensIn, uint256 minUsdcOut) returns (uint256)",
  "function graduate(address token) returns (address)",
  "function curveReserves(address token) view returns (uint256 usdcReserve, uint256 tokenReserve)"
])
const tokenAbi = parseAbi([
  "function approve(address spender, uint256 amount) returns (bool)",
  "function deposit() payable"
])

const { harness, ops, trade } = harnessPerFile()
let launchpad: Address
let USDC: Address

/** A wallet that talks to the launchpad directly, as any user's script would. */
const scriptWallet = async (nativeUsdc: string) => {
  const account = await freshAccount(harness.devnet.manifest, nativeUsdc)
  const clients = clientsFor(harness.devnet.manifest, account)
  const write = async (
    address: Address,
    abi: typeof launchpadAbi | typeof tokenAbi,
    functionName: string,
    args: ReadonlyArray<unknown>,
    value?: bigint
  ) => {
    const hash = await clients.wallet.writeContract({
      account,
      chain: clients.chain,
      address,
      abi,
      functionName,
      args,
      ...(value === undefined ? {} : { value })
    } as never)
    const receipt = await clients.public.waitForTransactionReceipt({ hash })
    if (receipt.status !== "success") throw new Error(`${functionName} reverted`)
    return receipt
  }
  return { account, clients, write }
}

type Script = Awaited<ReturnType<typeof scriptWallet>>
let creator: Script
let trader: Script

const launch = async (symbol: string) => {
  const created = await creator.write(launchpad, launchpadAbi, "createToken", [`${symbol} launch`, symbol])
  const [event] = parseEventLogs({ abi: launchpadAbi, logs: created.logs, eventName: "TokenCreated" })
  const token = getAddress(event!.args.token)
  await trader.write(token, tokenAbi, "approve", [launchpad, maxUint256])
  return token
}

const buyOnCurve = (token: Address, usdcIn: bigint) => trader.write(launchpad, launchpadAbi, "buy", [token, usdcIn, 0n])

/** The launchpad's own answer at `block`, from the trader's wallet (which holds and approved both sides). */
const simulateCurve = async (fn: "buy" | "sell", token: Address, amount: bigint, block: number) => {
  const { result } = await trader.clients.public.simulateContract({
    account: trader.account,
    address: launchpad,
    abi: launchpadAbi,
    functionName: fn,
    args: [token, amount, 0n],
    blockNumber: BigInt(block)
  })
  return result
}

const indexedAfter = (receipt: { readonly blockNumber: bigint }) => ops.indexed(receipt.blockNumber)

beforeAll(async () => {
  launchpad = contractAddress(harness.devnet.manifest, "launchpad")
  USDC = tokenAddress(harness.devnet.manifest, "USDC")
  creator = await scriptWallet("10")
  trader = await scriptWallet("200000")
  await trader.write(USDC, tokenAbi, "deposit", [], 100_000n * 10n ** 18n)
  await trader.write(USDC, tokenAbi, "approve", [launchpad, maxUint256])
}, 120_000)

const E6 = 10n ** 6n

describe("launchpad curve", () => {
  let token: Address

  beforeAll(async () => {
    token = await launch("CRV1")
    await buyOnCurve(token, 700n * E6)
    await buyOnCurve(token, 1_300n * E6)
    const tokens = await trader.clients.public.readContract({
      address: token,
      abi: parseAbi(["function balanceOf(address) view returns (uint256)"]),
      functionName: "balanceOf",
      args: [trader.account.address]
    })
    // a sell too, so the net flows are not just sums of buys
    await indexedAfter(await trader.write(launchpad, launchpadAbi, "sell", [token, tokens / 5n, 0n]))
  }, 120_000)

  it("the index's curve equals curveReserves on chain", async () => {
    const [state, constants] = await harness.runtime.runPromise(Effect.all([
      Effect.flatMap(ChainIndex, (index) => index.snapshot),
      Effect.flatMap(Launchpads, (launchpads) => launchpads.constants)
    ]))
    const facts = Option.getOrThrow(HashMap.get(state.state.tokens, addressOf(token)))
    expect(facts.launchpad).toBe("launchpad")
    const [pool] = curvePoolsOf(state.state, constants, [addressOf(token)], addressOf(USDC))
    const [usdcReserve, tokenReserve] = await trader.clients.public.readContract({
      address: launchpad,
      abi: launchpadAbi,
      functionName: "curveReserves",
      args: [token],
      blockNumber: BigInt(state.state.block)
    })
    expect(pool?.curve.usdcReserve).toBe(usdcReserve)
    expect(pool?.curve.tokenReserve).toBe(tokenReserve)
    expect(pool?.venue).toBe("launchpad")
  })

  it("quotes buys and sells, exactIn and exactOut, equal to the launchpad's own math at the quote's block", async () => {
    const base = { slippageBps: 100 }
    const buyIn = answerOf(await ops.quote({ ...base, sell: USDC, buy: token, amount: "250", side: "exactIn" }))
    expect(buyIn.best.executable).toBe(true)
    expect(buyIn.best.legs[0]!.hops[0]).toMatchObject({ venue: "launchpad" })
    expect(buyIn.sell.state).toBe("pool_only")
    expect(buyIn.buy.state).toBe("bonding_curve")
    expect(BigInt(buyIn.best.amountOutQuotedRaw)).toBe(await simulateCurve("buy", token, 250n * E6, buyIn.block))
    // the curve's marginal price values the token: gas is netted in it
    expect(buyIn.warnings).not.toContain("gas_not_netted")

    const sellIn = answerOf(
      await ops.quote({ ...base, sell: token, buy: USDC, amount: "1234567.891", side: "exactIn" })
    )
    expect(sellIn.best.executable).toBe(true)
    expect(BigInt(sellIn.best.amountOutQuotedRaw)).toBe(
      await simulateCurve("sell", token, BigInt(sellIn.best.amountInRaw), sellIn.block)
    )

    // exactOut: the least input that delivers the amount (one unit less does not)
    const buyOut = answerOf(await ops.quote({ ...base, sell: USDC, buy: token, amount: "3000000", side: "exactOut" }))
    const wanted = 3_000_000n * 10n ** 18n
    const usdcIn = BigInt(buyOut.best.amountInRaw)
    expect(await simulateCurve("buy", token, usdcIn, buyOut.block)).toBeGreaterThanOrEqual(wanted)
    expect(await simulateCurve("buy", token, usdcIn - 1n, buyOut.block)).toBeLessThan(wanted)
    expect(BigInt(buyOut.best.amountOutQuotedRaw)).toBe(await simulateCurve("buy", token, usdcIn, buyOut.block))

    const sellOut = answerOf(await ops.quote({ ...base, sell: token, buy: USDC, amount: "42.5", side: "exactOut" }))
    const tokensIn = BigInt(sellOut.best.amountInRaw)
    expect(await simulateCurve("sell", token, tokensIn, sellOut.block)).toBeGreaterThanOrEqual(42_500_000n)
    expect(await simulateCurve("sell", token, tokensIn - 1n, sellOut.block)).toBeLessThan(42_500_000n)
  })

  it("swaps through the service deliver exactly amountOutSimulated, buys and sells, exactIn and exactOut", async () => {
    const taker = await takerOn(harness, "100000", 20n)
    const run = async (request: Record<string, unknown>) => {
      const { delivered, final } = await trade(taker, request)
      expect(delivered).toBe(BigInt(final.amountOutSimulated))
      expect(delivered).toBeGreaterThanOrEqual(BigInt(final.minAmountOut))
      return delivered
    }
    const bought = await run({ sell: USDC, buy: token, amount: "300", side: "exactIn" })
    expect(bought).toBeGreaterThan(0n)
    await run({ sell: USDC, buy: token, amount: "100000", side: "exactOut" })
    await run({ sell: token, buy: USDC, amount: (bought / 2n / 10n ** 18n).toString(), side: "exactIn" })
    expect(await run({ sell: token, buy: USDC, amount: "10", side: "exactOut" })).toBeGreaterThanOrEqual(
      10n * E6
    )
  }, 120_000)

  it("an order larger than what is left before graduation is refused, naming the curve", async () => {
    const refused = errorOf(await ops.quote({ sell: USDC, buy: token, amount: "25000", side: "exactIn" }))
    expect(refused._tag).toBe("InsufficientLiquidity")
    expect(refused.message).toContain("curve_complete")
    // more tokens than the curve holds
    const tooMany = errorOf(await ops.quote({ sell: USDC, buy: token, amount: "800000000", side: "exactOut" }))
    expect(tooMany._tag).toBe("InsufficientLiquidity")
  })

  it("search says the token is on its bonding curve, launched by the launchpad", async () => {
    const { search } = await import("../../src/operations/search.js")
    const found = await harness.runtime.runPromise(search({ query: token, limit: 1 }))
    expect(found.results[0]).toMatchObject({ state: "bonding_curve", origin: { launchpad: "launchpad" } })
  })

  it("lists the launchpad as an executable venue", async () => {
    const { venues } = await import("../../src/operations/venues.js")
    const listing = await harness.runtime.runPromise(venues())
    expect(listing.venues.find((venue) => venue.id === "launchpad")).toMatchObject({
      kind: "launchpad",
      executable: true,
      enabled: true
    })
  })
})

describe("graduated launch", () => {
  it("routes through its v2 pair once graduated", async () => {
    const token = await launch("GRAD1")
    await buyOnCurve(token, 20_000n * E6)
    const graduated = await trader.write(launchpad, launchpadAbi, "graduate", [token])
    const [event] = parseEventLogs({ abi: launchpadAbi, logs: graduated.logs, eventName: "Graduated" })
    await indexedAfter(graduated)
    const quoted = answerOf(await ops.quote({ sell: USDC, buy: token, amount: "100", side: "exactIn" }))
    expect(quoted.buy.state).toBe("graduated")
    expect(quoted.best.legs[0]!.hops[0]).toMatchObject({
      venue: "uniswap-v2",
      poolId: getAddress(event!.args.pool)
    })
    expect(quoted.best.executable).toBe(true)
  }, 60_000)
})
