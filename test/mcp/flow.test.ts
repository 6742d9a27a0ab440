/**
 * The whole trade over MCP, as an agent's host runs it: the official SDK `Client` over
 * `StreamableHTTPClientTransport` against the real service on a private devnet, paying with payloads
 * made by `@x402/core` + `@x402/evm`, and viem as the taker's wallet (signing the permit, sending the
 * transactions exactly as returned). Checks every result's two forms, the receipts in `_meta`, the
 * exact fees, that HTTP and MCP answer the same bodies for the same step, and that a paid error result
 * costs nothing.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { PaymentRequired } from "@x402/core/types"
import type { Address, PrivateKeyAccount } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { tokenAddress } from "../support/devnet.js"
import { readJson } from "../support/http.js"
import { fees, newTaker, type PaidService, startPaidService, type Taker } from "../support/paidService.js"
import { pay, USDC } from "../support/x402.js"

let service: PaidService
let client: Client
let payer: PrivateKeyAccount
let WETH: Address

beforeAll(async () => {
  service = await startPaidService()
  payer = service.payer
  WETH = tokenAddress(service.devnet.manifest, "WETH")
  client = new Client({ name: "mcp-flow-test", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${service.server.baseUrl}/trade/v1/mcp`)))
}, 120_000)
afterAll(async () => {
  await client?.close()
  await service?.stop()
})

type ToolResult = Awaited<ReturnType<Client["callTool"]>>

/**
 * A tool call whose two forms must agree: the text content is the JSON of `structuredContent`, or for
 * payment requirements that JSON inside the x402 MCP transport's `x402/error` wrapper.
 */
const call = async (name: string, args: Record<string, unknown>, payment?: unknown): Promise<ToolResult> => {
  const result = await client.callTool({
    name,
    arguments: args,
    ...(payment === undefined ? {} : { _meta: { "x402/payment": payment } })
  })
  const content = result.content as Array<{ type: string; text: string }>
  expect(content).toHaveLength(1)
  const text = JSON.parse(content[0]!.text)
  const wrapped = text["x402/error"]
  expect(wrapped === undefined ? text : wrapped.data).toEqual(result.structuredContent)
  return result
}

const bodyOf = (result: ToolResult): any => result.structuredContent

/** What a paid tool asks for these arguments: its unpaid call's requirements, with no `next`. */
const offerOf = async (name: string, args: Record<string, unknown>): Promise<PaymentRequired> => {
  const unpaid = await call(name, args)
  expect(unpaid.isError).toBe(true)
  expect(unpaid.structuredContent).toMatchObject({ x402Version: 2, resource: { url: `mcp://tool/${name}` } })
  expect(unpaid.structuredContent).not.toHaveProperty("next")
  return unpaid.structuredContent as unknown as PaymentRequired
}

/** Asks the price, pays it with the public x402 client and calls again; the answer carries the receipt. */
const paidCall = async (name: string, args: Record<string, unknown>) => {
  const offer = await offerOf(name, args)
  const { payload } = await pay(payer, offer)
  const result = await call(name, args, payload)
  expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy()
  expect(result._meta?.["x402/payment-response"]).toMatchObject({
    success: true,
    payer: payer.address,
    network: "eip155:5042",
    transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/)
  })
  return { body: bodyOf(result), price: BigInt(offer.accepts[0]!.amount) }
}

/** A free call that must answer, with no receipt in `_meta`. */
const freeCall = async (name: string, args: Record<string, unknown>) => {
  const result = await call(name, args)
  expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy()
  expect(result._meta?.["x402/payment-response"]).toBeUndefined()
  return bodyOf(result)
}

const paidFees = (action: () => Promise<unknown>) => fees(service, action)

/** Sends `transactions` and asks tradeReceipt: it must pass, delivering what the balance of `token` rose by. */
const sendAndCheck = async (taker: Taker, quoteId: string, transactions: ReadonlyArray<any>, token: Address) => {
  expect(transactions.map((tx) => tx.purpose)).not.toContain("swap_placeholder")
  const before = await taker.balanceOf(token)
  const sent = (await taker.sendAll(transactions)).map((receipt) => ({
    hash: receipt.transactionHash,
    status: receipt.status
  }))
  expect(sent.map((tx) => tx.status)).toEqual(sent.map(() => "success"))
  const rose = (await taker.balanceOf(token)) - before
  const receipt = await freeCall("tradeReceipt", { quoteId, txHashes: sent.map((tx) => tx.hash) })
  expect(receipt).toMatchObject({ result: "pass", delivered: rose.toString() })
  expect(rose).toBeGreaterThan(0n)
  return { sent, receipt, rose }
}

describe("tools", () => {
  it("lists exactly the seven tools", async () => {
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      ["health", "tradeQuote", "tradeReceipt", "tradeSearch", "tradeSwap", "tradeSwapTx", "tradeVenues"]
    )
    // What a model needs to execute without having seen the API.
    const described = (name: string) => tools.find((tool) => tool.name === name)!.description
    for (const phrase of ["approvals first", "18 decimals", "raw base units", "swap_placeholder", "once per quote"]) {
      expect(described("tradeSwap")).toContain(phrase)
    }
    expect(described("tradeSwapTx")).toContain("message: signatures[0].typedData.message exactly as")
    expect(described("tradeReceipt")).toContain("raw base units")
  })
})

describe("the whole trade over MCP", () => {
  it("a native-funded USDC buy: search, quote, swap (no signature), send, receipt pass; paid exactly, swap once", async () => {
    const taker = await newTaker(service)
    let quoteId = ""
    let swapPrice = 0n
    let built: any
    const paid = await paidFees(async () => {
      const search = await paidCall("tradeSearch", { query: "WETH", limit: 1 })
      expect(search.price).toBe(5_000n)
      expect(search.body.results[0].address).toBe(WETH)
      const quote = await paidCall("tradeQuote", { sell: USDC, buy: WETH, amount: "1500", taker: taker.address })
      expect(quote.price).toBe(10_000n)
      expect(quote.body.next).toBe("swap")
      quoteId = quote.body.quoteId
      const swap = await paidCall("tradeSwap", { quoteId, taker: taker.address })
      // $1,500 is in the 0.05 USDC tier.
      expect(swap.price).toBe(50_000n)
      swapPrice = swap.price
      built = swap.body
    })
    expect(paid).toEqual([-(5_000n + 10_000n + swapPrice), 5_000n + 10_000n + swapPrice])
    expect(built.signatures).toEqual([])
    expect(built.next).toBeUndefined()
    expect(built.transactions.map((tx: any) => tx.purpose)).toEqual(["swap"])

    // Paid once per quote: the same swap again is free, and over HTTP it answers the same body.
    const again = await paidFees(async () => {
      const { http, mcp } = await sameStep("swap", "tradeSwap", { quoteId, taker: taker.address })
      expect(mcp).toEqual(http)
      expect(mcp.amountOutSimulated).toBe(built.amountOutSimulated)
    })
    expect(again).toEqual([0n, 0n])

    const { receipt, sent } = await sendAndCheck(taker, quoteId, built.transactions, WETH)
    expect(receipt.delivered).toBe(built.amountOutSimulated)
    // A receipt that passed is kept: both transports answer it alike, for free.
    const receipts = await paidFees(async () => {
      const { http, mcp } = await sameStep("receipt", "tradeReceipt", { quoteId, txHashes: sent.map((tx) => tx.hash) })
      expect(mcp).toEqual(http)
      expect(mcp).toEqual(receipt)
    })
    expect(receipts).toEqual([0n, 0n])
  })

  it("a Permit2 sell of a token bought first: swap asks for a permit, viem signs it, tradeSwapTx finishes it", async () => {
    const taker = await newTaker(service)
    const buy = await paidCall("tradeQuote", { sell: USDC, buy: WETH, amount: "900", taker: taker.address })
    const bought = await paidCall("tradeSwap", { quoteId: buy.body.quoteId, taker: taker.address })
    await sendAndCheck(taker, buy.body.quoteId, bought.body.transactions, WETH)

    let quoteId = ""
    let swapPrice = 0n
    let final: any
    const paid = await paidFees(async () => {
      const search = await paidCall("tradeSearch", { query: "WETH", limit: 1 })
      expect(search.body.results[0].address).toBe(WETH)
      const quote = await paidCall("tradeQuote", { sell: WETH, buy: USDC, amount: "0.2", taker: taker.address })
      expect(quote.body.next).toBe("swap")
      expect(quote.body.readiness.approval.needs).toBe("approve_and_sign_permit")
      quoteId = quote.body.quoteId
      const swap = await paidCall("tradeSwap", { quoteId, taker: taker.address })
      swapPrice = swap.price
      const built = swap.body
      expect(built.next).toBe("sign_permit")
      expect(built.transactions.map((tx: any) => tx.purpose)).toEqual(["approve", "swap_placeholder"])
      const typedData = built.signatures[0].typedData
      const signature = await taker.account.signTypedData(typedData)
      // swap/tx is free: no payment is asked and no receipt comes back.
      final = await freeCall("tradeSwapTx", {
        quoteId,
        taker: taker.address,
        permit: { message: typedData.message, signature }
      })
    })
    expect(swapPrice).toBeGreaterThan(0n)
    expect(paid).toEqual([-(5_000n + 10_000n + swapPrice), 5_000n + 10_000n + swapPrice])
    expect(final.next).toBeUndefined()
    expect(final.signatures).toEqual([])
    // The approval was never sent, so the final answer lists it first.
    expect(final.transactions.map((tx: any) => tx.purpose)).toEqual(["approve", "swap"])

    const { receipt } = await sendAndCheck(taker, quoteId, final.transactions, USDC)
    expect(BigInt(receipt.delivered)).toBeGreaterThanOrEqual(BigInt(final.minAmountOut))
  })
})

/**
 * One step asked over HTTP and over MCP at the same time (neither pays, so no block is mined between
 * them). Answers that embed the clock's second (an on-chain deadline) are asked again if the two calls
 * fell on either side of a second.
 */
const sameStep = async (path: string, tool: string, args: Record<string, unknown>) => {
  for (let attempt = 0;; attempt++) {
    const [response, result] = await Promise.all([
      fetch(`${service.server.baseUrl}/trade/v1/${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(args)
      }),
      call(tool, args)
    ])
    expect(response.status).toBe(200)
    expect(response.headers.get("payment-response")).toBeNull()
    expect(result.isError).toBeFalsy()
    expect(result._meta?.["x402/payment-response"]).toBeUndefined()
    const http = await readJson(response)
    const mcp = bodyOf(result)
    if (http.deadline === mcp.deadline || attempt === 2) return { http, mcp }
  }
}

describe("a paid error result costs nothing", () => {
  it("tradeSwap paid for a taker without funds: insufficient_balance, isError, no settlement", async () => {
    const broke = privateKeyToAccount(generatePrivateKey())
    const quote = await paidCall("tradeQuote", { sell: WETH, buy: USDC, amount: "5" })
    const args = { quoteId: quote.body.quoteId, taker: broke.address }
    const offer = await offerOf("tradeSwap", args)
    expect(BigInt(offer.accepts[0]!.amount)).toBeGreaterThan(0n)
    const { payload } = await pay(payer, offer)
    let refused: ToolResult | undefined
    const delta = await paidFees(async () => {
      refused = await call("tradeSwap", args, payload)
    })
    expect(refused!.isError).toBe(true)
    expect(refused!.structuredContent).toMatchObject({ error: { code: "insufficient_balance" }, next: "stop" })
    expect(refused!._meta?.["x402/payment-response"]).toBeUndefined()
    expect(delta).toEqual([0n, 0n])
  })
})
