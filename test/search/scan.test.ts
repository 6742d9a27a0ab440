/**
 * The background safety scan on a private devnet (it moves a pool): after start-up, search results for
 * the seeded trap tokens carry their measured verdicts (with the tax flags on the taxed token), never
 * at a block later than the answer's; a token listed by a plain viem script gets a verdict once it has
 * a pool; a token whose pool changes is measured again at a later block; a token nothing writes keeps its verdict
 * past the 256 blocks compared one by one, without being measured again.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Option, Schema } from "effect"
import { type Address, encodeFunctionData, type Hex, parseAbi } from "viem"
import { loadArtifact } from "../../devnet/Artifacts.js"
import { SearchRequest, SearchResponse } from "../../schema/Search.js"
import { ChainIndex } from "../../src/indexer/ChainIndex.js"
import { search } from "../../src/operations/search.js"
import { SafetyScan } from "../../src/safety/Scan.js"
import { clientsFor, freshAccount, type PrivateDevnet, startDevnet, tokenAddress } from "../support/devnet.js"
import { addressOf } from "../support/hex.js"
import { indexRuntime, synced } from "../support/services.js"
import { untilAsync } from "../support/until.js"

let devnet: PrivateDevnet
let runtime: ReturnType<typeof indexRuntime>

beforeAll(async () => {
  devnet = await startDevnet()
  runtime = indexRuntime(devnet.manifest, { settings: { SAFETY_SCAN: "true", SAFETY_SCAN_INTERVAL_MS: "100" } })
  await runtime.runPromise(synced)
}, 120_000)
afterAll(async () => {
  await runtime?.dispose()
  await devnet?.stop()
})

/** The search answer for a token's address, encoded as the wire would carry it. */
const lookUp = (address: string) =>
  runtime.runPromise(
    Schema.decodeUnknown(SearchRequest)({ query: address }).pipe(
      Effect.orDie,
      Effect.flatMap(search),
      Effect.tap((answer) => Effect.orDie(Schema.encode(SearchResponse)(answer)))
    )
  )

const scanStatus = () => runtime.runPromise(Effect.flatMap(SafetyScan, (scan) => scan.status))

/** Asks until the token's result satisfies `done` (the scan runs in the background). */
const eventually = async (address: string, done: (result: SearchResponse["results"][number]) => boolean) => {
  const answer = await untilAsync(`a verdict for ${address}`, async () => {
    const answer = await lookUp(address)
    if (done(answer.results[0]!)) return answer
    // not yet: what the last attempt saw, should the attempts run out
    throw new Error(JSON.stringify({ result: answer.results[0], scan: await scanStatus() }))
  }, { attempts: 600 })
  return { answer, result: answer.results[0]! }
}

/** Waits until the scan has judged `token` at `block` or later (a verdict or "no USDC route"). */
const judgedBy = (token: string, block: bigint) =>
  untilAsync(`the scan to judge ${token} at block ${block}`, async () => {
    const at = await runtime.runPromise(Effect.flatMap(SafetyScan, (scan) => scan.judgedAt(addressOf(token))))
    return Option.isSome(at) && at.value >= Number(block)
  }, { attempts: 600 })

const measured = (result: SearchResponse["results"][number]) => result.safety !== null

const checkedNoLater = (answer: SearchResponse) => {
  const result = answer.results[0]!
  expect(result.safety!.scope.block).toBeLessThanOrEqual(answer.block)
  expect(result.safetyByRoute.length).toBeGreaterThan(0)
  for (const route of result.safetyByRoute) expect(route.checkedBlock).toBeLessThanOrEqual(answer.block)
  // the best route's verdict is one of the routes listed
  expect(result.safetyByRoute[0]).toMatchObject({
    routeId: result.safety!.routeId,
    verdict: result.safety!.verdict,
    checkedBlock: result.safety!.scope.block
  })
}

describe("verdicts on search results from the background scan", () => {
  it(
    "the seeded traps: honeypot cannot_sell, taxed token taxed with both flags, capped token size_limited",
    async () => {
      const honey = await eventually(tokenAddress(devnet.manifest, "HONEY"), measured)
      expect(honey.result.safety!.verdict).toBe("cannot_sell")
      expect(honey.result.safety!.canSell).toBe(false)
      // a v2 and a v3 pool: a route each
      expect(honey.result.safetyByRoute.length).toBe(2)
      expect(honey.result.safetyByRoute.every((route) => route.verdict === "cannot_sell")).toBe(true)
      checkedNoLater(honey.answer)

      const tax = await eventually(tokenAddress(devnet.manifest, "TAX"), measured)
      expect(tax.result.safety!.verdict).toBe("taxed")
      expect(tax.result.safety!.buyTaxBps!).toBeGreaterThan(0)
      expect(tax.result.safety!.sellTaxBps!).toBeGreaterThan(0)
      expect(tax.result.flags).toEqual(expect.arrayContaining(["buy_tax", "sell_tax"]))
      expect(tax.result.safetyByRoute[0]!.buyTaxBps).toBe(tax.result.safety!.buyTaxBps)
      checkedNoLater(tax.answer)

      const capped = await eventually(tokenAddress(devnet.manifest, "CAPPED"), measured)
      expect(capped.result.safety, JSON.stringify(capped.result.safety)).toMatchObject({ verdict: "size_limited" })
      expect(Number(capped.result.safety!.maxBuyUsdc)).toBeGreaterThan(0)
      checkedNoLater(capped.answer)

      // untaxed tokens carry no tax flag; USDC is never simulated
      const weth = await eventually(tokenAddress(devnet.manifest, "WETH"), measured)
      expect(weth.result.safety!.verdict).toBe("ok")
      expect(weth.result.flags).not.toContain("buy_tax")
      expect(weth.result.flags).not.toContain("sell_tax")
      const usdc = await lookUp(tokenAddress(devnet.manifest, "USDC"))
      expect(usdc.results[0]!.safety).toBeNull()
      expect(usdc.results[0]!.safetyByRoute).toEqual([])

      // tokens that trade only in hooked v4 pools (a creator-fee hook, a dynamic-fee hook) are measured
      // through the router like any other
      for (const label of ["BLOOM", "ZAP"]) {
        const hooked = await eventually(tokenAddress(devnet.manifest, label), measured)
        expect(hooked.result.safety!.canSell, label).toBe(true)
        expect(hooked.result.safety!.route.venue, label).toBe("uniswap-v4")
        checkedNoLater(hooked.answer)
      }
    },
    120_000
  )

  it("a token listed after start-up gets a verdict once it has a pool, and again after its pool changes", async () => {
    const { manifest } = devnet
    const account = await freshAccount(manifest, "100000")
    const { public: client, wallet } = clientsFor(manifest, account)
    const USDC = tokenAddress(manifest, "USDC")
    const abi = parseAbi([
      "function createPair(address, address) returns (address)",
      "function getPair(address, address) view returns (address)",
      "function deposit() payable",
      "function transfer(address, uint256) returns (bool)",
      "function mint(address) returns (uint256)"
    ])
    const artifact = loadArtifact("DevToken")
    const late = (await client.waitForTransactionReceipt({
      hash: await wallet.deployContract({
        abi: artifact.abi,
        bytecode: artifact.bytecode as Hex,
        args: ["Scanned Late", "SLATE", 18, 1_000_000n * 10n ** 18n],
        account,
        chain: wallet.chain
      })
    })).contractAddress!
    const send = async (to: Address, data: Hex, value = 0n) =>
      client.waitForTransactionReceipt({
        hash: await wallet.sendTransaction({ to, data, value, account, chain: wallet.chain })
      })
    const indexed = (block: bigint) =>
      runtime.runPromise(Effect.flatMap(ChainIndex, (index) => index.waitFor(Number(block))))

    // A pair without liquidity: the index knows the token, but no USDC path can fill a probe.
    const factory = manifest.contracts["v2Factory"] as Address
    const paired = await send(factory, encodeFunctionData({ abi, functionName: "createPair", args: [late, USDC] }))
    const pair = await client.readContract({ address: factory, abi, functionName: "getPair", args: [late, USDC] })
    await indexed(paired.blockNumber)
    await judgedBy(late, paired.blockNumber)
    expect((await scanStatus()).unroutable).toBeGreaterThan(0)
    const empty = (await lookUp(late)).results[0]!
    expect(empty.safety).toBeNull()
    expect(empty.safetyByRoute).toEqual([])

    await send(USDC, encodeFunctionData({ abi, functionName: "deposit" }), 40_000n * 10n ** 18n)
    const addLiquidity = async (usdc: bigint, tokens: bigint) => {
      await send(USDC, encodeFunctionData({ abi, functionName: "transfer", args: [pair, usdc] }))
      await send(late, encodeFunctionData({ abi, functionName: "transfer", args: [pair, tokens] }))
      return send(pair, encodeFunctionData({ abi, functionName: "mint", args: [account.address] }))
    }
    const listed = await addLiquidity(20_000_000_000n, 10_000n * 10n ** 18n)
    // how soon after its liquidity is mined: `npm run bench -- scan`
    const first = await eventually(late, measured)
    expect(first.result.safety!.verdict).toBe("ok")
    expect(first.result.safety!.scope.block).toBeGreaterThanOrEqual(Number(listed.blockNumber))
    expect(first.result.safety!.route.poolId.toLowerCase()).toBe(pair.toLowerCase())
    checkedNoLater(first.answer)

    const changed = await addLiquidity(10_000_000_000n, 5_000n * 10n ** 18n)
    const again = await eventually(late, (result) => (result.safety?.scope.block ?? 0) >= Number(changed.blockNumber))
    expect(again.result.safety!.scope.block).toBeGreaterThan(first.result.safety!.scope.block)
    expect(again.result.safety!.verdict).toBe("ok")
    checkedNoLater(again.answer)
  }, 120_000)

  it("a verdict whose token nothing wrote stands more than 256 blocks later, not measured again", async () => {
    const token = tokenAddress(devnet.manifest, "HONEY")
    const first = await eventually(token, measured)
    const checked = first.result.safety!.scope.block
    const judged = await runtime.runPromise(Effect.flatMap(SafetyScan, (scan) => scan.judgedAt(addressOf(token))))
    const { public: client, test } = clientsFor(devnet.manifest)
    // 32 empty blocks at a time: within the index's reorg window, so it follows each block as a chain would.
    for (let i = 0; i < 10; i++) {
      await test.mine({ blocks: 32 })
      const head = await client.getBlockNumber()
      await runtime.runPromise(Effect.flatMap(ChainIndex, (index) => index.waitFor(Number(head))))
    }
    const head = Number(await client.getBlockNumber())
    // The index's tracer follows the blocks in the background, a little behind a burst of 320 at once.
    const later = await untilAsync("the verdict shown at the head", async () => {
      const answer = await lookUp(token)
      return answer.block >= head && answer.results[0]!.safety !== null && answer
    }, { attempts: 600 })
    expect(later.block).toBeGreaterThan(checked + 256)
    expect(later.results[0]!.safety).toMatchObject({ verdict: "cannot_sell", scope: { block: checked } })
    expect(later.results[0]!.safetyByRoute.map((route) => route.checkedBlock)).toEqual(
      first.result.safetyByRoute.map((route) => route.checkedBlock)
    )
    expect(await runtime.runPromise(Effect.flatMap(SafetyScan, (scan) => scan.judgedAt(addressOf(token))))).toEqual(
      judged
    )
  }, 120_000)
})
