/**
 * What MCP adds to the trade steps that do real work, beside `mcp.ts` (venues and search): a paid
 * `tradeQuote` (payment in `_meta`) vs `POST /trade/v1/quote` (`PAYMENT-SIGNATURE`), and a free
 * `tradeSwapTx` vs `POST /trade/v1/swap/tx`. Same set-up as `mcp.ts`: the service on a private automining
 * devnet, the official SDK client, payments and permits signed before the clock starts, the two
 * transports alternating. A permit round finishes once, so each `swap/tx` sample gets its own quote and
 * paid swap (untimed); the taker bought the WETH it sells first and sends nothing after, so every round
 * sees the same wallet.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { decodePaymentRequiredHeader } from "@x402/core/http"
import type { PaymentRequired } from "@x402/core/types"
import { createPublicClient, createWalletClient, type Hex, http } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { arcChain } from "../../layers/ChainRpc.js"
import { pay, USDC } from "../../test/support/x402.js"
import { figure, latency, ms, percentile, timed } from "./lib/report.js"
import { servedService } from "./lib/served.js"

const QUOTE_CALLS = Number(process.env["MCP_BENCH_QUOTE"] ?? 40)
const SWAP_TX_CALLS = Number(process.env["MCP_BENCH_SWAP_TX"] ?? 40)
const WARMUP = 3

const service = await servedService("mcp-trade")
const { manifest } = service
// One manifest account pays every call and is the taker too (it holds native and ERC-20 USDC).
const account = privateKeyToAccount(manifest.accounts[4]!.privateKey as Hex)
const WETH = manifest.tokens?.["WETH"] as Hex
const chain = arcChain({ chainId: manifest.chainId, rpcUrl: manifest.rpcUrl })
const reader = createPublicClient({ chain, transport: http(manifest.rpcUrl), pollingInterval: 50 })
const wallet = createWalletClient({ account, chain, transport: http(manifest.rpcUrl) })

const { indexedPast } = service

const client = new Client({ name: "bench-mcp-trade", version: "1.0.0" })
await client.connect(new StreamableHTTPClientTransport(new URL(`${service.baseUrl}/trade/v1/mcp`)))

const expectOk = (ok: boolean, what: string) => {
  if (!ok) throw new Error(`bench: ${what} did not succeed`)
}

/** An untimed paid tool call: ask the price, pay it, call again. */
const paidTool = async (name: string, args: Record<string, unknown>): Promise<any> => {
  const offer = (await client.callTool({ name, arguments: args })).structuredContent as unknown as PaymentRequired
  const { payload } = await pay(account, offer)
  const result = await client.callTool({ name, arguments: args, _meta: { "x402/payment": payload } })
  expectOk(result.isError !== true, `${name} ${JSON.stringify(result.structuredContent)}`)
  return result.structuredContent
}

const post = (path: string, body: object, headers: Record<string, string> = {}) =>
  fetch(`${service.baseUrl}/trade/v1/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body)
  })

const signed = (value: number) => value < 0 ? `-${ms(-value)}` : `+${ms(value)}`

/**
 * The overhead as the difference of the percentiles, and as the median of the per-round differences
 * (each round times both transports back to back, so that one is less sensitive to a loaded machine).
 */
const overhead = (label: string, http: Array<number>, mcp: Array<number>, httpLabel: string, mcpLabel: string) => {
  const rounds = mcp.map((value, i) => value - http[i]!).sort((a, b) => a - b)
  const h = latency(httpLabel, [...http])
  const m = latency(mcpLabel, [...mcp])
  figure(`${label}: MCP overhead`, `p50 ${signed(m.p50 - h.p50)}, p99 ${signed(m.p99 - h.p99)}`)
  figure(`${label}: per-round median`, signed(percentile(rounds, 50)))
}

/**
 * Times one call over each transport, in turns (odd rounds MCP first), each once the index has caught
 * up with the chain: a paid call mines its settlement, and the next call should not pay for indexing it.
 */
const pair = async (round: number, overHttp: () => Promise<unknown>, overMcp: () => Promise<unknown>) => {
  const settle = async () => indexedPast(await reader.getBlockNumber())
  const run = async (action: () => Promise<unknown>) => {
    await settle()
    return timed(action)
  }
  if (round % 2 === 0) {
    const http = await run(overHttp)
    return { http, mcp: await run(overMcp) }
  }
  const mcp = await run(overMcp)
  return { http: await run(overHttp), mcp }
}

// Paid: quote, each call with a fresh authorization signed beforehand.
{
  const request = { sell: USDC, buy: WETH, amount: "250" }
  const offer = (await client.callTool({ name: "tradeQuote", arguments: request }))
    .structuredContent as unknown as PaymentRequired
  const probe = await post("quote", request)
  await probe.arrayBuffer()
  expectOk(probe.status === 402, "unpaid POST /trade/v1/quote (402)")
  const httpOffer = decodePaymentRequiredHeader(probe.headers.get("payment-required")!)
  const http: Array<number> = []
  const mcp: Array<number> = []
  for (let i = 0; i < QUOTE_CALLS + WARMUP; i++) {
    const { header } = await pay(account, httpOffer)
    const { payload } = await pay(account, offer)
    const sample = await pair(i, async () => {
      const response = await post("quote", request, { "payment-signature": header })
      expectOk(response.status === 200 && response.headers.get("payment-response") !== null, "paid POST quote")
      await response.json()
    }, async () => {
      const result = await client.callTool({
        name: "tradeQuote",
        arguments: request,
        _meta: { "x402/payment": payload }
      })
      expectOk(result.isError !== true && result._meta?.["x402/payment-response"] !== undefined, "paid tradeQuote")
    })
    if (i < WARMUP) continue
    http.push(sample.http)
    mcp.push(sample.mcp)
  }
  overhead(
    "quote (paid)",
    http,
    mcp,
    `quote: POST /trade/v1/quote, paid (${QUOTE_CALLS})`,
    `quote: tradeQuote over MCP, paid (${QUOTE_CALLS})`
  )
}

// The taker buys the WETH it then offers to sell in every permit round.
{
  const quote = await paidTool("tradeQuote", { sell: USDC, buy: WETH, amount: "3000" })
  const built = await paidTool("tradeSwap", { quoteId: quote.quoteId, taker: account.address })
  for (const tx of built.transactions) {
    const hash = await wallet.sendTransaction({
      to: tx.to,
      data: tx.data,
      value: BigInt(tx.value),
      gas: BigInt(tx.gas)
    })
    const receipt = await reader.waitForTransactionReceipt({ hash })
    expectOk(receipt.status === "success", "the WETH buy")
    await indexedPast(receipt.blockNumber)
  }
}

/** An open permit round (a paid Permit2 swap of a fresh quote) and the `swap/tx` arguments that finish it. */
const permitRound = async () => {
  const quote = await paidTool("tradeQuote", { sell: WETH, buy: USDC, amount: "0.05" })
  const built = await paidTool("tradeSwap", { quoteId: quote.quoteId, taker: account.address })
  expectOk(built.next === "sign_permit", "a Permit2 swap asking for a permit")
  const typedData = built.signatures[0].typedData
  const signature = await account.signTypedData(typedData)
  return { quoteId: quote.quoteId, taker: account.address, permit: { message: typedData.message, signature } }
}

// Free: swap/tx, each call finishing its own round.
{
  const http: Array<number> = []
  const mcp: Array<number> = []
  for (let i = 0; i < SWAP_TX_CALLS + WARMUP; i++) {
    const [forHttp, forMcp] = [await permitRound(), await permitRound()]
    const sample = await pair(i, async () => {
      const response = await post("swap/tx", forHttp)
      expectOk(response.status === 200, "POST /trade/v1/swap/tx")
      await response.json()
    }, async () => {
      const result = await client.callTool({ name: "tradeSwapTx", arguments: forMcp })
      expectOk(result.isError !== true, `tradeSwapTx ${JSON.stringify(result.structuredContent)}`)
    })
    if (i < WARMUP) continue
    http.push(sample.http)
    mcp.push(sample.mcp)
  }
  overhead(
    "swap/tx (free)",
    http,
    mcp,
    `swap/tx: POST /trade/v1/swap/tx (${SWAP_TX_CALLS})`,
    `swap/tx: tradeSwapTx over MCP (${SWAP_TX_CALLS})`
  )
}

await client.close()
await service.stop()
