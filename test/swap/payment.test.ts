/**
 * The trade flow over the service's HTTP edge, paid the way users pay: an unmodified `@x402/fetch` with
 * a payer wallet that is not the taker. Search, quote and swap are charged exactly their prices; swap
 * once per quote; swap/tx and receipt are free; every error answer leaves the payer's balance alone; two
 * concurrent paid swaps of one quote settle once.
 */
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http"
import { wrapFetchWithPayment } from "@x402/fetch"
import type { Address } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { tokenAddress } from "../support/devnet.js"
import { readJson } from "../support/http.js"
import { fees, newTaker, type PaidService, startPaidService } from "../support/paidService.js"
import { pay, payerClient, USDC } from "../support/x402.js"

let service: PaidService
let WETH: Address
const json = { "content-type": "application/json" }

beforeAll(async () => {
  service = await startPaidService()
  WETH = tokenAddress(service.devnet.manifest, "WETH")
}, 120_000)
afterAll(() => service?.stop())

const url = (path: string) => `${service.server.baseUrl}/trade/v1/${path}`
const post = (path: string, body: object, headers: Record<string, string> = {}) =>
  fetch(url(path), { method: "POST", headers: { ...json, ...headers }, body: JSON.stringify(body) })
const paidFetch = () => wrapFetchWithPayment(fetch, payerClient(service.payer, "eip155:5042", "5000000"))
const paidPost = (path: string, body: object) =>
  paidFetch()(url(path), { method: "POST", headers: json, body: JSON.stringify(body) })
const paidFees = (action: () => Promise<unknown>) => fees(service, action)
const fundedTaker = () => newTaker(service)

describe("the whole trade over HTTP, paid with @x402/fetch", () => {
  it("charges search, quote and swap exactly, swap once per quote, and nothing for swap/tx and receipt", async () => {
    const taker = await fundedTaker()
    let quoteId = ""
    let swapPrice = 0n
    let built: any
    const paid = await paidFees(async () => {
      const search = await paidPost("search", { query: "WETH", limit: 1 })
      expect(search.status).toBe(200)
      const quoted = await paidPost("quote", { sell: USDC, buy: WETH, amount: "2500", taker: taker.address })
      expect(quoted.status).toBe(200)
      const quote = await readJson(quoted)
      expect(quote.next).toBe("swap")
      quoteId = quote.quoteId
      // The offer states the swap's price before it runs: $2,500 is in the 0.05 USDC tier.
      const offer = decodePaymentRequiredHeader(
        (await post("swap", { quoteId, taker: taker.address })).headers.get("payment-required") ?? ""
      )
      swapPrice = BigInt(offer.accepts[0]!.amount)
      expect(swapPrice).toBe(50_000n)
      const swapped = await paidPost("swap", { quoteId, taker: taker.address })
      expect(swapped.status).toBe(200)
      expect(decodePaymentResponseHeader(swapped.headers.get("payment-response") ?? "")).toMatchObject({
        success: true,
        payer: service.payer.address
      })
      built = await readJson(swapped)
    })
    expect(paid).toEqual([-(5_000n + 10_000n + swapPrice), 5_000n + 10_000n + swapPrice])

    // Paid once per quote: the same swap again asks for no payment and rebuilds.
    const again = await paidFees(async () => {
      const rebuilt = await post("swap", { quoteId, taker: taker.address })
      expect(rebuilt.status).toBe(200)
      expect(rebuilt.headers.get("payment-response")).toBeNull()
      expect((await readJson(rebuilt)).amountOutSimulated).toBe(built.amountOutSimulated)
    })
    expect(again).toEqual([0n, 0n])

    const before = await taker.balanceOf(WETH)
    const receipts: Array<Awaited<ReturnType<typeof taker.send>>> = []
    for (const tx of built.transactions) receipts.push(await taker.send(tx))
    expect(receipts.every((r) => r.status === "success")).toBe(true)
    const delivered = (await taker.balanceOf(WETH)) - before
    expect(delivered).toBe(BigInt(built.amountOutSimulated))

    const receiptFees = await paidFees(async () => {
      const answer = await post("receipt", { quoteId, txHashes: receipts.map((r) => r.transactionHash) })
      expect(answer.status).toBe(200)
      expect(await readJson(answer)).toMatchObject({ result: "pass", delivered: delivered.toString() })
    })
    expect(receiptFees).toEqual([0n, 0n])
  })

  it("the Permit2 round: swap is paid, swap/tx is free and finishes it once", async () => {
    const taker = await fundedTaker()
    const buy = await readJson(await paidPost("quote", { sell: USDC, buy: WETH, amount: "900", taker: taker.address }))
    const bought = await readJson(await paidPost("swap", { quoteId: buy.quoteId, taker: taker.address }))
    for (const tx of bought.transactions) await taker.send(tx)

    const sell = await readJson(await paidPost("quote", { sell: WETH, buy: USDC, amount: "0.2", taker: taker.address }))
    const built = await readJson(await paidPost("swap", { quoteId: sell.quoteId, taker: taker.address }))
    expect(built.next).toBe("sign_permit")
    const signature = await taker.account.signTypedData(built.signatures[0].typedData)
    const body = {
      quoteId: sell.quoteId,
      taker: taker.address,
      permit: { message: built.signatures[0].typedData.message, signature }
    }
    let final: any
    const swapTxFees = await paidFees(async () => {
      const answer = await post("swap/tx", body)
      expect(answer.status).toBe(200)
      final = await readJson(answer)
    })
    expect(swapTxFees).toEqual([0n, 0n])
    expect(final.transactions.map((tx: any) => tx.purpose)).toEqual(["approve", "swap"])
    for (const tx of final.transactions) expect((await taker.send(tx)).status).toBe("success")
    const replay = await post("swap/tx", body)
    expect([replay.status, (await readJson(replay)).error.code]).toEqual([409, "no_pending_swap"])
  })
})

describe("errors are never charged", () => {
  it("insufficient balance (422), an unknown quote (404), an expired quote (410) and exhausted attempts (429)", async () => {
    const broke = privateKeyToAccount(generatePrivateKey())
    const taker = await fundedTaker()
    const quote = await readJson(await paidPost("quote", { sell: WETH, buy: USDC, amount: "5" }))
    const short = await readJson(await paidPost("quote", { sell: USDC, buy: WETH, amount: "10", ttlSec: 1 }))
    const delta = await paidFees(async () => {
      for (let i = 0; i < 5; i++) {
        const answer = await paidPost("swap", { quoteId: quote.quoteId, taker: broke.address })
        expect([answer.status, (await readJson(answer)).error.code]).toEqual([422, "insufficient_balance"])
        expect(answer.headers.get("payment-response")).toBeNull()
      }
      const exhausted = await post("swap", { quoteId: quote.quoteId, taker: taker.address })
      expect([exhausted.status, (await readJson(exhausted)).error.code]).toEqual([429, "swap_attempts_exhausted"])
      const unknown = await post("swap", { quoteId: "q_0000000000000000", taker: taker.address })
      expect([unknown.status, (await readJson(unknown)).error.code]).toEqual([404, "quote_not_found"])
      // past the quote's one second by the server's clock, without waiting for it (a clock further
      // ahead would also make the index look stale, and the replacement quote would be refused)
      const expired = await service.clock.ahead(
        1_100,
        () => post("swap", { quoteId: short.quoteId, taker: taker.address })
      )
      const body = await readJson(expired)
      expect([expired.status, body.error.code, body.next]).toEqual([410, "quote_expired", "requote"])
      expect(body.quote.quoteId).toMatch(/^q_/)
      const permitField = await post("swap", { quoteId: quote.quoteId, taker: taker.address, permit: {} })
      expect([permitField.status, (await readJson(permitField)).error.code]).toEqual([400, "invalid_request"])
    })
    expect(delta).toEqual([0n, 0n])
  })

  it("a stale quote (409) is not charged, and its replacement quote is free", async () => {
    const taker = await fundedTaker()
    const mover = await fundedTaker()
    const onePair = { sell: USDC, buy: WETH, venues: ["uniswap-v2"], maxHops: 1, maxSplits: 1 }
    const quote = await readJson(
      await paidPost("quote", { ...onePair, amount: "40", slippageBps: 10, taker: taker.address })
    )
    const moved = await readJson(await paidPost("quote", { ...onePair, amount: "20000", taker: mover.address }))
    const push = await readJson(await paidPost("swap", { quoteId: moved.quoteId, taker: mover.address }))
    for (const tx of push.transactions) expect((await mover.send(tx)).status).toBe("success")
    const delta = await paidFees(async () => {
      const stale = await paidPost("swap", { quoteId: quote.quoteId, taker: taker.address })
      const body = await readJson(stale)
      expect([stale.status, body.error.code, body.next]).toEqual([409, "quote_stale", "requote"])
      expect(stale.headers.get("payment-response")).toBeNull()
      expect(body.quote.quoteId).toMatch(/^q_/)
      expect(body.quote.next).toBe("swap")
    })
    expect(delta).toEqual([0n, 0n])
  })

  it("two concurrent paid swaps of one quote settle once", async () => {
    const taker = await fundedTaker()
    const quote = await readJson(await paidPost("quote", { sell: USDC, buy: WETH, amount: "50", taker: taker.address }))
    const offer = decodePaymentRequiredHeader(
      (await post("swap", { quoteId: quote.quoteId, taker: taker.address })).headers.get("payment-required") ?? ""
    )
    const [first, second] = await Promise.all([pay(service.payer, offer), pay(service.payer, offer)])
    let statuses: Array<number> = []
    const delta = await paidFees(async () => {
      const answers = await Promise.all(
        [first, second].map((payment) =>
          post("swap", { quoteId: quote.quoteId, taker: taker.address }, { "payment-signature": payment.header })
        )
      )
      statuses = answers.map((answer) => answer.status).sort()
      const settled = answers.filter((answer) => answer.headers.get("payment-response") !== null)
      expect(settled).toHaveLength(1)
    })
    expect(statuses[0]).toBe(200)
    expect(delta).toEqual([-10_000n, 10_000n])
  })
})
