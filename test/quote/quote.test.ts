/**
 * `quote` on the shared devnet, called as the operation the HTTP API and MCP serve: its plans against
 * the routing guarantees and the chain's own pool math, its errors with their codes and `next`, and
 * readiness for a funded and an empty account.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { type Address, encodeFunctionData, getAddress, type Hex, parseAbi } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { loadArtifact } from "../../devnet/Artifacts.js"
import { QuoteStore } from "../../layers/QuoteStore.js"
import type { TradeError } from "../../schema/Errors.js"
import { rowOf } from "../../schema/ErrorTable.js"
import { QuoteResponse } from "../../schema/Quote.js"
import { QuoteRequest } from "../../schema/QuoteRequest.js"
import { ChainIndex } from "../../src/indexer/ChainIndex.js"
import { quote } from "../../src/quote/Quote.js"
import { v2PairAbi } from "../support/abis.js"
import { clientsFor, freshAccount, manifestAccount, sharedManifest, tokenAddress } from "../support/devnet.js"
import { indexRuntime, synced } from "../support/services.js"

const manifest = sharedManifest()
const runtime = indexRuntime(manifest)
const client = clientsFor(manifest).public
const USDC = tokenAddress(manifest, "USDC")
const WETH = tokenAddress(manifest, "WETH")
const WBTC = tokenAddress(manifest, "WBTC")

beforeAll(() => runtime.runPromise(synced), 60_000)
afterAll(() => runtime.dispose())

const ask = (body: Record<string, unknown>) =>
  runtime.runPromise(
    Schema.decodeUnknown(QuoteRequest)(body).pipe(
      Effect.orDie,
      Effect.flatMap(quote),
      // the answer must encode as the OpenAPI document describes it
      Effect.tap((answer) => Effect.orDie(Schema.encode(QuoteResponse)(answer)))
    )
  )

const refusal = async (body: Record<string, unknown>) => {
  const error = await runtime.runPromise(
    Schema.decodeUnknown(QuoteRequest)(body).pipe(Effect.orDie, Effect.flatMap(quote), Effect.flip)
  ) as TradeError
  return { ...rowOf(error), message: error.message }
}

const factoryAbi = parseAbi(["function getPair(address, address) view returns (address)"])
const lateAbi = parseAbi([
  "function createPair(address, address) returns (address)",
  "function deposit() payable",
  "function transfer(address, uint256) returns (bool)",
  "function mint(address) returns (uint256)",
  "function sync()"
])

/** A v2 pair's exact output at `block`, from its reserves on chain (the pair's own formula). */
const v2Out = async (pair: Address, tokenIn: Address, amountIn: bigint, feeBps: number, block: number) => {
  const blockNumber = BigInt(block)
  const [r0, r1] = await client.readContract({
    address: pair,
    abi: v2PairAbi,
    functionName: "getReserves",
    blockNumber
  })
  const token0 = await client.readContract({ address: pair, abi: v2PairAbi, functionName: "token0", blockNumber })
  const [reserveIn, reserveOut] = getAddress(token0) === getAddress(tokenIn) ? [r0, r1] : [r1, r0]
  const withFee = amountIn * BigInt(10_000 - feeBps)
  return (withFee * reserveOut) / (reserveIn * 10_000n + withFee)
}

describe("quote plans", () => {
  it("a direct v2 quote equals the pair's own math at the quote's block, to the base unit", async () => {
    const answer = await ask({ sell: USDC, buy: WETH, amount: "250", venues: ["uniswap-v2"], maxHops: 1, maxSplits: 1 })
    expect(answer.best.type).toBe("direct")
    expect(answer.best.legs).toHaveLength(1)
    const hop = answer.best.legs[0]!.hops[0]!
    expect(hop.venue).toBe("uniswap-v2")
    const pair = await client.readContract({
      address: manifest.contracts["v2Factory"] as Address,
      abi: factoryAbi,
      functionName: "getPair",
      args: [USDC, WETH]
    })
    expect(hop.poolId).toBe(getAddress(pair))
    const expected = await v2Out(pair, USDC, 250_000_000n, hop.feeBps!, answer.block)
    expect(answer.best.amountOutQuotedRaw).toBe(expected.toString())
    expect(answer.sell).toMatchObject({ address: getAddress(USDC), amountRaw: "250000000", decimals: 6 })
    // minAmountOut: 100 bps below, rounded down
    expect(answer.best.minAmountOutRaw).toBe(((expected * 9_900n) / 10_000n).toString())
    expect(answer.routes.map((route) => route.routeId)).toContain(
      `${getAddress(USDC)}>${getAddress(WETH)}|uniswap-v2:${getAddress(pair)}`
    )
    expect(answer.quoteId).toMatch(/^q_[0-9a-f]{32}$/)
  })

  it("a large order splits and is never below the best single route", async () => {
    const answer = await ask({ sell: USDC, buy: WETH, amount: "400000" })
    const singles = answer.routes.flatMap((route) => route.amountOutQuoted === undefined ? [] : [route])
    expect(singles.length).toBeGreaterThan(1)
    const bestSingle = singles.reduce((a, b) => (Number(b.amountOutQuoted) > Number(a.amountOutQuoted) ? b : a))
    expect(answer.best.type).toBe("split")
    expect(answer.best.legs.length).toBeGreaterThan(1)
    const legsOut = answer.best.legs.reduce((sum, leg) => sum + BigInt(leg.amountOutQuotedRaw), 0n)
    const legsIn = answer.best.legs.reduce((sum, leg) => sum + BigInt(leg.amountInRaw), 0n)
    expect(legsOut.toString()).toBe(answer.best.amountOutQuotedRaw)
    expect(legsIn).toBe(400_000_000_000n)
    expect(answer.best.legs.reduce((sum, leg) => sum + leg.shareBps, 0)).toBe(10_000)
    expect(Number(answer.best.amountOutQuoted)).toBeGreaterThan(Number(bestSingle.amountOutQuoted))
  })

  it("a pair without USDC is a graph plan whose edges chain from the sell to the buy token", async () => {
    const answer = await ask({ sell: WETH, buy: WBTC, amount: "3" })
    expect(answer.best.type).toBe("graph")
    expect(answer.best.legs).toEqual([])
    const edges = answer.best.graph!.edges
    expect(edges[0]!.tokenInAddress).toBe(getAddress(WETH))
    expect(edges.at(-1)!.tokenOutAddress).toBe(getAddress(WBTC))
    const intoBuy = edges.filter((edge) => edge.tokenOutAddress === getAddress(WBTC))
    expect(intoBuy.reduce((sum, edge) => sum + BigInt(edge.amountOutRaw), 0n).toString()).toBe(
      answer.best.amountOutQuotedRaw
    )
  })

  it("exactOut delivers the asked amount and bounds the input by the slippage", async () => {
    const answer = await ask({ sell: USDC, buy: WETH, amount: "0.5", side: "exactOut", slippageBps: 50 })
    expect(BigInt(answer.best.amountOutQuotedRaw)).toBeGreaterThanOrEqual(500_000_000_000_000_000n)
    expect(answer.best.minAmountOutRaw).toBe("500000000000000000")
    const input = BigInt(answer.best.amountInRaw)
    expect(answer.best.maxAmountIn).toBeDefined()
    expect(BigInt(Math.round(Number(answer.best.maxAmountIn) * 1e6))).toBe((input * 10_050n + 9_999n) / 10_000n)
  })

  it("stores the quote with its plan, amounts and the price of its swap call", async () => {
    const answer = await ask({ sell: USDC, buy: WETH, amount: "2500", ttlSec: 30 })
    const stored = await runtime.runPromise(Effect.flatMap(QuoteStore, (store) => store.get(answer.quoteId)))
    expect(stored._tag).toBe("Live")
    if (stored._tag !== "Live") return
    expect(stored.record.amountOut.toString()).toBe(answer.best.amountOutQuotedRaw)
    expect(stored.record.block).toBe(answer.block)
    expect(stored.record.plan.edges.length).toBeGreaterThan(0)
    // $2,500 is in the middle tier: 0.05 USDC
    expect(stored.record.swapPrice).toBe(50_000n)
    expect(Date.parse(answer.expiresAt) - stored.record.createdAtMs).toBe(30_000)
  })
})

describe("a quote repeated", () => {
  it("at one block answers the same routes; after the pool moves, the new block's prices", async () => {
    const order = { sell: USDC, buy: WETH, amount: "2500", venues: ["uniswap-v2"], maxHops: 1, maxSplits: 1 }
    const first = await ask(order)
    const again = await ask(order)
    if (again.block === first.block) {
      expect(again.routes).toEqual(first.routes)
      expect(again.best.amountOutQuotedRaw).toBe(first.best.amountOutQuotedRaw)
      expect(again.quoteId).not.toBe(first.quoteId)
    }
    // 10 USDC more in the pair, synced: the pool's price moves in a new block
    const pair = await client.readContract({
      address: manifest.contracts["v2Factory"] as Address,
      abi: factoryAbi,
      functionName: "getPair",
      args: [USDC, WETH]
    })
    const account = await freshAccount(manifest, "100")
    const { wallet } = clientsFor(manifest, account)
    const send = async (to: Address, data: Hex, value = 0n) =>
      client.waitForTransactionReceipt({
        hash: await wallet.sendTransaction({ to, data, value, account, chain: wallet.chain })
      })
    await send(USDC, encodeFunctionData({ abi: lateAbi, functionName: "deposit" }), 20n * 10n ** 18n)
    await send(USDC, encodeFunctionData({ abi: lateAbi, functionName: "transfer", args: [pair, 10_000_000n] }))
    const synced = await send(pair, encodeFunctionData({ abi: lateAbi, functionName: "sync" }))
    await runtime.runPromise(Effect.flatMap(ChainIndex, (index) => index.waitFor(Number(synced.blockNumber))))

    const moved = await ask(order)
    expect(moved.block).toBeGreaterThanOrEqual(Number(synced.blockNumber))
    const feeBps = moved.best.legs[0]!.hops[0]!.feeBps!
    const expected = await v2Out(pair, USDC, 2_500_000_000n, feeBps, moved.block)
    expect(moved.best.amountOutQuotedRaw).toBe(expected.toString())
    expect(moved.best.amountOutQuotedRaw).not.toBe(first.best.amountOutQuotedRaw)
  })
})

describe("quote refusals", () => {
  it.each([
    [{ sell: "USDC", buy: WETH, amount: "1" }, "ticker_not_allowed", 400, "fix_request"],
    [{ sell: USDC, buy: USDC.toLowerCase(), amount: "1" }, "unsupported_pair", 400, "fix_request"],
    [
      { sell: "0x0000000000000000000000000000000000000000", buy: USDC, amount: "1" },
      "unsupported_pair",
      400,
      "fix_request"
    ],
    [{ sell: USDC, buy: WETH, amount: "1e6" }, "invalid_amount", 400, "fix_request"],
    [{ sell: USDC, buy: WETH, amount: "0.0000001" }, "invalid_amount", 400, "fix_request"],
    [{ sell: USDC, buy: WETH, amount: "0" }, "invalid_amount", 400, "fix_request"],
    [{ sell: USDC, buy: WETH, amount: "1", venues: ["sushiswap"] }, "unknown_venue", 400, "fix_request"],
    [{ sell: USDC, buy: WETH, amount: "1", excludeVenues: ["nope"] }, "unknown_venue", 400, "fix_request"],
    [
      { sell: USDC, buy: "0x00000000000000000000000000000000deadbeef", amount: "1" },
      "token_not_found",
      404,
      "fix_request"
    ],
    [{ sell: USDC, buy: WETH, amount: "100000000", side: "exactOut" }, "insufficient_liquidity", 422, "stop"]
  ])("%o answers %s", async (body, code, status, next) => {
    expect(await refusal(body)).toMatchObject({ code, status, next })
  })

  it("two tokens with no pool between them within maxHops answer no_route", async () => {
    const thin = tokenAddress(manifest, "THIN")
    const honey = tokenAddress(manifest, "HONEY")
    expect(await refusal({ sell: thin, buy: honey, amount: "1", maxHops: 1 })).toMatchObject({
      code: "no_route",
      status: 422,
      next: "stop"
    })
  })
})

describe("readiness", () => {
  it("a funded account with no approvals is ready and needs an approval and a permit", async () => {
    const account = manifestAccount(manifest, 7)
    const answer = await ask({ sell: WETH, buy: USDC, amount: "0.01", taker: account.address })
    const readiness = answer.readiness!
    expect(readiness.balance.ok).toBe(true)
    const balance = await client.readContract({
      address: WETH,
      abi: parseAbi(["function balanceOf(address) view returns (uint256)"]),
      functionName: "balanceOf",
      args: [account.address],
      blockNumber: BigInt(answer.block)
    })
    expect(readiness.balance.available).toBe(balance.toString())
    expect(readiness.balance.required).toBe("10000000000000000")
    expect(readiness.gas.ok).toBe(true)
    expect(readiness.fees).toMatchObject({ ok: true, swapFeeUsdc: "0.01", payer: account.address })
    expect(readiness.ready).toBe(true)
    expect(["approve_and_sign_permit", "sign_permit", "approve", "none"]).toContain(readiness.approval.needs)
    expect(answer.safety?.verdict).toBe("ok")
    expect(answer.next).toBe("swap")
  })

  it("an empty account is not ready, and the quote says stop", async () => {
    const empty = privateKeyToAccount(generatePrivateKey()).address
    const answer = await ask({ sell: WETH, buy: USDC, amount: "0.01", taker: empty })
    expect(answer.readiness).toMatchObject({
      ready: false,
      balance: { ok: false, available: "0" },
      gas: { ok: false, availableWei: "0" },
      fees: { ok: false, availableUsdc: "0" },
      approval: { needs: "approve_and_sign_permit", spender: getAddress(manifest.contracts["permit2"]!) },
      approve: { needs: "approve" }
    })
    expect(answer.next).toBe("stop")
  })
})

describe("a token listed after start-up", () => {
  it("a token and v2 pair created by a plain viem script are quoted to the base unit", async () => {
    const account = await freshAccount(manifest, "100000")
    const { wallet } = clientsFor(manifest, account)
    const token = loadArtifact("DevToken")
    const deployHash = await wallet.deployContract({
      abi: token.abi,
      bytecode: token.bytecode as Hex,
      args: ["Late Token", "LATE", 18, 1_000_000n * 10n ** 18n],
      account,
      chain: wallet.chain
    })
    const late = (await client.waitForTransactionReceipt({ hash: deployHash })).contractAddress!
    const send = async (to: Address, data: Hex, value = 0n) =>
      client.waitForTransactionReceipt({
        hash: await wallet.sendTransaction({ to, data, value, account, chain: wallet.chain })
      })
    const factory = manifest.contracts["v2Factory"] as Address
    await send(factory, encodeFunctionData({ abi: lateAbi, functionName: "createPair", args: [late, USDC] }))
    const pair = await client.readContract({
      address: factory,
      abi: factoryAbi,
      functionName: "getPair",
      args: [late, USDC]
    })
    await send(USDC, encodeFunctionData({ abi: lateAbi, functionName: "deposit" }), 20_000n * 10n ** 18n)
    await send(USDC, encodeFunctionData({ abi: lateAbi, functionName: "transfer", args: [pair, 20_000_000_000n] }))
    await send(late, encodeFunctionData({ abi: lateAbi, functionName: "transfer", args: [pair, 10_000n * 10n ** 18n] }))
    const minted = await send(pair, encodeFunctionData({ abi: lateAbi, functionName: "mint", args: [account.address] }))
    await runtime.runPromise(Effect.flatMap(ChainIndex, (index) => index.waitFor(Number(minted.blockNumber))))

    const answer = await ask({ sell: USDC, buy: late, amount: "123.456789" })
    expect(answer.best.type).toBe("direct")
    expect(answer.best.legs[0]!.hops[0]!.poolId).toBe(getAddress(pair))
    const expected = await v2Out(pair, USDC, 123_456_789n, answer.best.legs[0]!.hops[0]!.feeBps!, answer.block)
    expect(answer.best.amountOutQuotedRaw).toBe(expected.toString())
    expect(answer.buy).toMatchObject({ symbol: "LATE", decimals: 18, discovered: "index" })
  })
})
