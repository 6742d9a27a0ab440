/**
 * What is checkable without payment is answered before the 402 (issue 19, items 7 and 8): a quote whose
 * `buy` is a ticker, whose amount is "abc", zero, has more places than the token or is beyond uint256
 * in base units, or that names an unknown venue or token, is answered with its own 400-class error and
 * no offer, over HTTP and MCP alike; with a valid payment attached it is never 200 and never charged.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { decodePaymentRequiredHeader } from "@x402/core/http"
import { beforeAll, describe, expect, it } from "vitest"
import { tokenAddress } from "../support/devnet.js"
import { readJson } from "../support/http.js"
import { fees, paidServiceForFile } from "../support/paidService.js"
import { pay, USDC } from "../support/x402.js"

const service = paidServiceForFile()
let weth = ""

beforeAll(() => {
  weth = tokenAddress(service.devnet.manifest, "WETH")
})

const quote = (body: object, headers: Record<string, string> = {}) =>
  fetch(`${service.server.baseUrl}/trade/v1/quote`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body)
  })

/** 1 followed by 80 zeros USDC: more base units than uint256 holds. */
const beyondUint256 = `1${"0".repeat(80)}`

const wrong: ReadonlyArray<readonly [string, () => object, number, string]> = [
  ["a ticker in buy", () => ({ sell: USDC, buy: "WETH", amount: "10" }), 400, "ticker_not_allowed"],
  ["amount \"abc\"", () => ({ sell: USDC, buy: weth, amount: "abc" }), 400, "invalid_amount"],
  ["a zero amount", () => ({ sell: USDC, buy: weth, amount: "0.000" }), 400, "invalid_amount"],
  ["more places than USDC has", () => ({ sell: USDC, buy: weth, amount: "1.0000001" }), 400, "invalid_amount"],
  ["an amount beyond uint256", () => ({ sell: USDC, buy: weth, amount: beyondUint256 }), 400, "invalid_amount"],
  ["an unknown venue", () => ({ sell: USDC, buy: weth, amount: "10", venues: ["nope"] }), 400, "unknown_venue"],
  ["the same asset twice", () => ({ sell: USDC, buy: USDC, amount: "10" }), 400, "unsupported_pair"],
  ["an unknown token", () => ({ sell: USDC, buy: `0x${"ab".repeat(20)}`, amount: "10" }), 404, "token_not_found"]
]

describe("over HTTP", () => {
  it.each(wrong)("answers %s with its own error, unpaid", async (_, body, status, code) => {
    const answer = await quote(body())
    expect(answer.status).toBe(status)
    expect(answer.headers.get("payment-required")).toBeNull()
    expect(await readJson(answer)).toMatchObject({ error: { code }, next: "fix_request" })
  })

  it("never answers 200 nor charges a wrong request that carries a valid payment", async () => {
    const offer = decodePaymentRequiredHeader(
      (await quote({ sell: USDC, buy: weth, amount: "10" })).headers.get("payment-required") ?? ""
    )
    const { header } = await pay(service.payer, offer)
    const delta = await fees(service, async () => {
      for (const [, body, status] of wrong) {
        expect((await quote(body(), { "payment-signature": header })).status).toBe(status)
      }
    })
    expect(delta).toEqual([0n, 0n])
    // The payment was never claimed: it still pays for a right request, exactly once.
    const paid = await fees(service, async () => {
      expect((await quote({ sell: USDC, buy: weth, amount: "10" }, { "payment-signature": header })).status).toBe(200)
    })
    expect(paid).toEqual([-10_000n, 10_000n])
  })
})

describe("beyond every pool's reach", () => {
  it("answers insufficient_liquidity, never 200, and charges nothing for an amount no pool can take", async () => {
    // 10^50 USDC: within uint256 in base units, beyond what any pool's arithmetic holds (v2 reserves are
    // uint112, v4 deltas int128, v3 runs out of price range).
    const huge = { sell: USDC, buy: weth, amount: `1${"0".repeat(50)}` }
    for (const side of ["exactIn", "exactOut"] as const) {
      const offer = decodePaymentRequiredHeader((await quote({ ...huge, side })).headers.get("payment-required") ?? "")
      const { header } = await pay(service.payer, offer)
      const delta = await fees(service, async () => {
        const answer = await quote({ ...huge, side }, { "payment-signature": header })
        expect(answer.status).toBe(422)
        expect(await readJson(answer)).toMatchObject({ error: { code: "insufficient_liquidity" }, next: "stop" })
      })
      expect(delta).toEqual([0n, 0n])
    }
  })
})

describe("over MCP", () => {
  it("answers a ticker and an amount beyond uint256 with their errors, not with payment requirements", async () => {
    const client = new Client({ name: "before-payment", version: "1.0.0" })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${service.server.baseUrl}/trade/v1/mcp`)))
    try {
      for (
        const [args, code] of [
          [{ sell: USDC, buy: "WETH", amount: "10" }, "ticker_not_allowed"],
          [{ sell: USDC, buy: weth, amount: beyondUint256 }, "invalid_amount"]
        ] as const
      ) {
        const result = await client.callTool({ name: "tradeQuote", arguments: args })
        expect(result.isError).toBe(true)
        expect(result.structuredContent).toMatchObject({ error: { code }, next: "fix_request" })
      }
    } finally {
      await client.close()
    }
  })
})
