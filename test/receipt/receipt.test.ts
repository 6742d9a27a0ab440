/**
 * `receipt` on the shared devnet, called as the operation HTTP and MCP serve, against swaps sent
 * through the real router by fresh wallets on a token and v2 pair of this file's own (the seeded pools'
 * prices stay as other files read them): an exact pass, a reverted swap, a short fill, a fill in an
 * unlisted transaction, transactions a wallet did not send itself, the rate limits and a swap the
 * service does not know.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { type Address, encodeFunctionData, getAddress, type Hex, parseAbi, zeroAddress } from "viem"
import { loadArtifact } from "../../devnet/Artifacts.js"
import { DevnetVenue } from "../../devnet/router.js"
import { lowerAddress } from "../../schema/Chain.js"
import { toErrorBody } from "../../schema/ErrorBody.js"
import type { TradeError } from "../../schema/Errors.js"
import { rowOf } from "../../schema/ErrorTable.js"
import type { BuiltSwap } from "../../schema/QuoteRecord.js"
import { ReceiptRequest } from "../../schema/Receipt.js"
import { planHashOf } from "../../src/execution/RouterPlan.js"
import { receipt } from "../../src/receipt/Receipt.js"
import { walletOf } from "../router/support.js"
import { atInstant } from "../support/clock.js"
import { clientsFor, contractAddress, freshAccount, sharedManifest } from "../support/devnet.js"
import { indexRuntime } from "../support/services.js"
import { type Wallet } from "../support/wallet.js"
import {
  askReceipt,
  builtSwap,
  fundTaker,
  mined,
  newQuoteId,
  putRecord,
  recordWith,
  sendTagged,
  someAddress,
  storedRecord,
  taggedPlan,
  unknownHash
} from "./support.js"

const manifest = sharedManifest()
const runtime = indexRuntime(manifest)
const client = clientsFor(manifest).public
const USDC = contractAddress(manifest, "usdc")
const router = contractAddress(manifest, "router")

let token: Address
let pair: Address

const marketAbi = parseAbi([
  "function createPair(address, address) returns (address)",
  "function getPair(address, address) view returns (address)",
  "function transfer(address, uint256) returns (bool)",
  "function mint(address) returns (uint256)"
])

/** This file's own token and USDC pair, so its swaps move no price another file reads. */
beforeAll(async () => {
  const account = await freshAccount(manifest, "100000")
  const lp = walletOf(manifest, account)
  const artifact = loadArtifact("DevToken")
  const deployed = await lp.wallet.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode as Hex,
    args: ["Receipt Token", "RCPT", 18, 1_000_000n * 10n ** 18n],
    account,
    chain: lp.chain
  })
  token = (await mined(lp, deployed)).contractAddress!
  const send = async (to: Address, data: Hex) =>
    mined(lp, await lp.wallet.sendTransaction({ to, data, account, chain: lp.chain }))
  const factory = contractAddress(manifest, "v2Factory")
  await send(factory, encodeFunctionData({ abi: marketAbi, functionName: "createPair", args: [token, USDC] }))
  pair = await client.readContract({ address: factory, abi: marketAbi, functionName: "getPair", args: [token, USDC] })
  await fundTaker(lp, USDC, router, 20_000_000_000n)
  await send(USDC, encodeFunctionData({ abi: marketAbi, functionName: "transfer", args: [pair, 20_000_000_000n] }))
  await send(
    token,
    encodeFunctionData({ abi: marketAbi, functionName: "transfer", args: [pair, 10_000n * 10n ** 18n] })
  )
  await send(pair, encodeFunctionData({ abi: marketAbi, functionName: "mint", args: [account.address] }))
}, 60_000)
afterAll(() => runtime.dispose())

/** A fresh wallet with 1,000 ERC-20 USDC that approved the router; `approval` is that approval's hash. */
const newTaker = async () => {
  const wallet = walletOf(manifest, await freshAccount(manifest, "2000"))
  const approval = await fundTaker(wallet, USDC, router, 1_000_000_000n)
  return { wallet, approval }
}

/** The plans made for each quote id: what `swap` would have built for it (their hashes are stored). */
const planned = new Map<string, Array<Hex>>()

/** USDC -> this file's token on its pair, tagged with `quoteId`, recorded as built for it. */
const plan = (quoteId: string, taker: Wallet, amountIn: bigint, minAmountOut = 0n) => {
  const made = unbuiltPlan(quoteId, taker, amountIn, minAmountOut)
  planned.set(quoteId, [...(planned.get(quoteId) ?? []), planHashOf(made)])
  return made
}

/** The same trade, not recorded as built: a plan the taker made up with the quote's tag. */
const unbuiltPlan = (quoteId: string, taker: Wallet, amountIn: bigint, minAmountOut = 0n, recipient?: Address) =>
  taggedPlan(quoteId, {
    sellToken: USDC,
    buyToken: token,
    recipient: recipient ?? taker.address,
    amountIn,
    minAmountOut,
    steps: [{
      venue: DevnetVenue.v2,
      flags: 0,
      pool: pair,
      tokenIn: USDC,
      tokenOut: token,
      fee: 0,
      tickSpacing: 0,
      hooks: zeroAddress,
      amount: amountIn,
      limit: 0n
    }]
  })

/** Stores the quote `swap` would have built for `taker`, from `block` on, with the plans made for it. */
const store = (
  quoteId: string,
  swap: Partial<Omit<BuiltSwap, "taker">> & Pick<BuiltSwap, "block"> & { readonly taker: `0x${string}` },
  reads?: object
) =>
  runtime.runPromise(putRecord(recordWith(quoteId, {
    sell: lowerAddress(USDC),
    buy: lowerAddress(token),
    swap: builtSwap({ planHashes: planned.get(quoteId) ?? [], ...swap, taker: lowerAddress(swap.taker) }),
    ...(reads === undefined ? {} : { receiptReads: { count: 0, lastAtMs: 0, final: null, ...reads } })
  })))

const ask = (body: { quoteId: string; txHashes: ReadonlyArray<string> }) => askReceipt(runtime, body)

/** The error as a client sees it: status and envelope; asked at `atMs` when given (else now). */
const refusal = async (body: { quoteId: string; txHashes: ReadonlyArray<string> }, atMs?: number) => {
  const asked = Schema.decodeUnknown(ReceiptRequest)(body).pipe(Effect.orDie, Effect.flatMap(receipt), Effect.flip)
  const error = await runtime.runPromise(atMs === undefined ? asked : asked.pipe(atInstant(atMs))) as TradeError
  return { status: rowOf(error).status, ...toErrorBody(error) }
}

const head = async () => Number(await client.getBlockNumber())

describe("a swap that filled", () => {
  it("passes with exactly what the recipient's balance rose by, after the quote expired", async () => {
    const { wallet, approval } = await newTaker()
    const quoteId = newQuoteId()
    const block = await head()
    let swapHash: Hex = "0x"
    const [rose] = await wallet.deltas(token, [wallet.address], async () => {
      swapHash = await sendTagged(wallet, router, plan(quoteId, wallet, 25_000_000n))
      await mined(wallet, swapHash)
    })
    const filled = await client.getTransactionReceipt({ hash: swapHash })
    expect(filled.status).toBe("success")
    const minAmountOut = rose! - 1_000n
    await store(quoteId, { block, taker: wallet.address, minAmountOut })

    const answer = await ask({ quoteId, txHashes: [approval, swapHash.toUpperCase().replace("0X", "0x")] })
    expect(answer).toEqual({
      quoteId,
      result: "pass",
      delivered: rose!.toString(),
      minAmountOut: minAmountOut.toString(),
      token: getAddress(token),
      recipient: getAddress(wallet.address),
      swapTxHash: swapHash,
      block: Number(filled.blockNumber),
      transactions: [
        { txHash: approval, status: "success", block: expect.any(Number) },
        { txHash: swapHash, status: "success", block: Number(filled.blockNumber) }
      ],
      unlistedFills: [],
      reason: null
    })
    expect(answer.next).toBeUndefined()

    // A pass cannot change: the same hashes answer again at once, without a chain read.
    expect(await ask({ quoteId, txHashes: [swapHash, approval] })).toEqual(answer)
    const record = await runtime.runPromise(storedRecord(quoteId))
    expect(record?.receiptReads).toMatchObject({ count: 1, final: { answer: { result: "pass" } } })
    // Other hashes are another question: a new read, inside 5 s of the last one.
    expect(await refusal({ quoteId, txHashes: [swapHash] })).toMatchObject({
      status: 429,
      error: { code: "receipt_rate_limited" },
      next: "retry",
      retryAfterSec: 5
    })
  })

  it("fails and stops when the fill delivered less than the minimum", async () => {
    const { wallet } = await newTaker()
    const quoteId = newQuoteId()
    const block = await head()
    let swapHash: Hex = "0x"
    const [rose] = await wallet.deltas(token, [wallet.address], async () => {
      swapHash = await sendTagged(wallet, router, plan(quoteId, wallet, 10_000_000n))
      await mined(wallet, swapHash)
    })
    await store(quoteId, { block, taker: wallet.address, minAmountOut: rose! + 1n })
    const answer = await ask({ quoteId, txHashes: [swapHash] })
    expect(answer).toMatchObject({
      result: "fail",
      next: "stop",
      delivered: rose!.toString(),
      minAmountOut: (rose! + 1n).toString(),
      swapTxHash: swapHash
    })
    expect(answer.reason).toContain(`delivered ${rose}, less than minAmountOut ${rose! + 1n}`)
  })

  it("fails and stops when the quote also filled in a transaction not listed", async () => {
    const { wallet } = await newTaker()
    const quoteId = newQuoteId()
    const block = await head()
    const first = await sendTagged(wallet, router, plan(quoteId, wallet, 5_000_000n))
    await mined(wallet, first)
    const second = await sendTagged(wallet, router, plan(quoteId, wallet, 5_000_000n))
    await mined(wallet, second)
    await store(quoteId, { block, taker: wallet.address })
    const answer = await ask({ quoteId, txHashes: [first] })
    expect(answer).toMatchObject({ result: "fail", next: "stop", swapTxHash: first, unlistedFills: [second] })
    expect(answer.reason).toContain(second)
    expect(BigInt(answer.delivered)).toBeGreaterThan(0n)
  })

  it("fails and stops when the fill delivered to someone other than the recipient: the plan hash binds it", async () => {
    const { wallet } = await newTaker()
    const quoteId = newQuoteId()
    const block = await head()
    plan(quoteId, wallet, 5_000_000n)
    const made = unbuiltPlan(quoteId, wallet, 5_000_000n, 0n, someAddress())
    const swapHash = await sendTagged(wallet, router, made)
    await mined(wallet, swapHash)
    await store(quoteId, { block, taker: wallet.address })
    const answer = await ask({ quoteId, txHashes: [swapHash] })
    expect(answer).toMatchObject({ result: "fail", next: "stop", delivered: "0", swapTxHash: swapHash })
    expect(answer.reason).toContain(`(planHash ${planHashOf(made)}): its tokens, recipient, amounts or steps differ`)
  })

  it("fails and stops when the fill executed a plan `swap` did not build: another amount in, the same tag", async () => {
    const { wallet } = await newTaker()
    const quoteId = newQuoteId()
    const block = await head()
    plan(quoteId, wallet, 5_000_000n)
    const made = unbuiltPlan(quoteId, wallet, 7_000_000n)
    const swapHash = await sendTagged(wallet, router, made)
    await mined(wallet, swapHash)
    await store(quoteId, { block, taker: wallet.address })
    const answer = await ask({ quoteId, txHashes: [swapHash] })
    expect(answer).toMatchObject({ result: "fail", next: "stop", delivered: "0", swapTxHash: swapHash })
    expect(answer.reason).toContain(
      `executed a plan \`swap\` did not build for this quote (planHash ${planHashOf(made)})`
    )
  })

  it("a fill for this quote tag by another wallet is not the taker's and does not count", async () => {
    const { wallet } = await newTaker()
    const other = await newTaker()
    const quoteId = newQuoteId()
    const block = await head()
    await mined(other.wallet, await sendTagged(other.wallet, router, plan(quoteId, other.wallet, 5_000_000n)))
    const swapHash = await sendTagged(wallet, router, plan(quoteId, wallet, 5_000_000n))
    await mined(wallet, swapHash)
    await store(quoteId, { block, taker: wallet.address })
    expect(await ask({ quoteId, txHashes: [swapHash] })).toMatchObject({ result: "pass", unlistedFills: [] })
  })
})

describe("a swap that did not fill", () => {
  it("a reverted swap fails with requote and the router's reason", async () => {
    const { wallet, approval } = await newTaker()
    const quoteId = newQuoteId()
    const block = await head()
    // asks for more than the pool gives: the router reverts InsufficientOutput
    const swapHash = await sendTagged(wallet, router, plan(quoteId, wallet, 10_000_000n, 10n ** 30n))
    const reverted = await mined(wallet, swapHash)
    expect(reverted.status).toBe("reverted")
    await store(quoteId, { block, taker: wallet.address, minAmountOut: 10n ** 30n })
    const answer = await ask({ quoteId, txHashes: [approval, swapHash] })
    expect(answer).toMatchObject({
      result: "fail",
      next: "requote",
      delivered: "0",
      swapTxHash: swapHash,
      block: Number(reverted.blockNumber),
      transactions: [
        { txHash: approval, status: "success" },
        { txHash: swapHash, status: "reverted", block: Number(reverted.blockNumber) }
      ]
    })
    expect(answer.reason).toMatch(/reverted in block \d+/)
    expect(answer.reason).toContain("InsufficientOutput(")
    // Not final: the taker may still send the swap again, so no answer is kept.
    expect((await runtime.runPromise(storedRecord(quoteId)))?.receiptReads.final).toBeNull()
  })

  it("only an approval listed, nothing filled: fail with requote", async () => {
    const { wallet, approval } = await newTaker()
    const quoteId = newQuoteId()
    await store(quoteId, { block: await head(), taker: wallet.address })
    expect(await ask({ quoteId, txHashes: [approval] })).toMatchObject({ result: "fail", next: "requote" })
  })
})

describe("transactions a wallet did not send itself", () => {
  it("a listed transaction from another wallet is invalid_request naming its index", async () => {
    const { wallet, approval } = await newTaker()
    const other = await newTaker()
    const quoteId = newQuoteId()
    await store(quoteId, { block: await head(), taker: wallet.address })
    const answer = await refusal({ quoteId, txHashes: [approval, other.approval] })
    expect(answer).toMatchObject({ status: 400, error: { code: "invalid_request" }, next: "fix_request" })
    expect(answer.error.details).toEqual([
      {
        expected: `a transaction sent by the taker ${wallet.address}`,
        code: "not_sent_by_taker",
        path: ["txHashes", 1],
        message: `sent by ${other.wallet.address}`
      }
    ])
  })

  it.each([
    ["an EIP-7702 delegated wallet", () => `0xef0100${someAddress().slice(2).toLowerCase()}` as Hex, "EIP-7702"],
    ["a contract wallet", () => "0x6080604052" as Hex, "contract code"]
  ])("%s is invalid_request", async (_label, code, named) => {
    const { wallet, approval } = await newTaker()
    const quoteId = newQuoteId()
    const block = await head()
    const swapHash = await sendTagged(wallet, router, plan(quoteId, wallet, 1_000_000n))
    await mined(wallet, swapHash)
    await clientsFor(manifest).test.setCode({ address: wallet.address, bytecode: code() })
    await store(quoteId, { block, taker: wallet.address })
    const answer = await refusal({ quoteId, txHashes: [approval, swapHash] })
    expect(answer).toMatchObject({ status: 400, error: { code: "invalid_request" }, next: "fix_request" })
    expect(answer.error.message).toContain(named)
    expect(answer.error.details).toEqual([expect.objectContaining({ code: "taker_has_code", path: ["txHashes", 0] })])
  })
})

describe("limits", () => {
  it("one chain read per 5 s: the exact wait, and concurrent calls read once", async () => {
    const { wallet, approval } = await newTaker()
    const quoteId = newQuoteId()
    // Asked 1.5 s after the last read, by the service's clock: 3.5 s to wait, rounded up.
    const lastAtMs = Date.now()
    await store(quoteId, { block: await head(), taker: wallet.address }, { count: 3, lastAtMs })
    expect(await refusal({ quoteId, txHashes: [approval] }, lastAtMs + 1_500)).toMatchObject({
      status: 429,
      error: { code: "receipt_rate_limited" },
      next: "retry",
      retryAfterSec: 4
    })
    const fresh = newQuoteId()
    await store(fresh, { block: await head(), taker: wallet.address })
    const both = await Promise.allSettled([
      ask({ quoteId: fresh, txHashes: [unknownHash()] }),
      ask({ quoteId: fresh, txHashes: [unknownHash()] })
    ])
    expect(both.map((settled) => settled.status).sort()).toEqual(["fulfilled", "rejected"])
    expect((await runtime.runPromise(storedRecord(fresh)))?.receiptReads.count).toBe(1)
  })

  it("after 132 reads: receipt_reads_exhausted", async () => {
    const { wallet, approval } = await newTaker()
    const quoteId = newQuoteId()
    await store(quoteId, { block: await head(), taker: wallet.address }, { count: 131, lastAtMs: Date.now() - 6_000 })
    expect(await ask({ quoteId, txHashes: [approval] })).toMatchObject({ result: "fail" })
    const record = await runtime.runPromise(storedRecord(quoteId))
    expect(record?.receiptReads.count).toBe(132)
    await runtime.runPromise(putRecord({ ...record!, receiptReads: { ...record!.receiptReads, lastAtMs: 0 } }))
    expect(await refusal({ quoteId, txHashes: [approval] })).toMatchObject({
      status: 429,
      error: { code: "receipt_reads_exhausted" },
      next: "stop"
    })
  })

  it("swap_not_found: an unknown quote, a quote without a built swap, a swap built over an hour ago", async () => {
    const expected = { status: 404, error: { code: "swap_not_found" }, next: "stop" }
    expect(await refusal({ quoteId: newQuoteId(), txHashes: [unknownHash()] })).toMatchObject(expected)
    const unbuilt = newQuoteId()
    await runtime.runPromise(
      putRecord(recordWith(unbuilt, { sell: lowerAddress(USDC), buy: lowerAddress(token), swap: null }))
    )
    expect(await refusal({ quoteId: unbuilt, txHashes: [unknownHash()] })).toMatchObject(expected)
    const old = newQuoteId()
    const taker = someAddress()
    // asked one millisecond past the hour, by the service's clock
    const askedAtMs = Date.now()
    await store(old, { block: 1, taker, builtAtMs: askedAtMs - 3_600_001 })
    expect(await refusal({ quoteId: old, txHashes: [unknownHash()] }, askedAtMs)).toMatchObject(expected)
    // the refusals read nothing and count nothing
    expect((await runtime.runPromise(storedRecord(old)))?.receiptReads.count).toBe(0)
  })
})
