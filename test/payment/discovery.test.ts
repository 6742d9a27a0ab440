/**
 * Offers carry the x402 `bazaar` discovery extension (issue 19, item 11), built from the operation
 * table: over HTTP the method and a JSON body example, over MCP the tool and the input schema the tool
 * declares; in both, a draft 2020-12 JSON Schema of that `info` made from the operation's request and
 * response schemas. The info validates against its own schema, as a discovery service checks before
 * listing it, and the schema accepts a real request and refuses a malformed one.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { decodePaymentRequiredHeader } from "@x402/core/http"
import { Ajv2020 } from "ajv/dist/2020.js"
import { expect, it } from "vitest"
import type { AnyOperation } from "../../src/operations/Declare.js"
import { httpDiscovery } from "../../src/operations/Discovery.js"
import { operations } from "../../src/operations/table.js"
import { tokenAddress } from "../support/devnet.js"
import { paidServiceForFile } from "../support/paidService.js"
import { USDC } from "../support/x402.js"

const service = paidServiceForFile()

const validator = (schema: object) => new Ajv2020({ strict: false }).compile(schema)

interface Bazaar {
  readonly info: { readonly input: Record<string, unknown>; readonly output: Record<string, unknown> }
  readonly schema: object
}

it("gives every paid operation of the table an info that its own schema accepts", () => {
  const paid = (operations as ReadonlyArray<AnyOperation>).filter((op) => op.cost.kind !== "free")
  expect(paid.map((op) => op.name)).toEqual(["search", "quote", "swap"])
  for (const op of paid) {
    const { bazaar } = httpDiscovery(op) as { bazaar: Bazaar }
    const validate = validator(bazaar.schema)
    expect(validate(bazaar.info), `${op.name}: ${JSON.stringify(validate.errors)}`).toBe(true)
  }
})

it("describes each paid HTTP operation: POST, a JSON body, and the request's schema", async () => {
  const weth = tokenAddress(service.devnet.manifest, "WETH")
  for (
    const [path, real] of [
      ["/trade/v1/search", { query: "WETH" }],
      ["/trade/v1/quote", { sell: USDC, buy: weth, amount: "10" }]
    ] as const
  ) {
    const unpaid = await fetch(`${service.server.baseUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(real)
    })
    expect(unpaid.status).toBe(402)
    // The offer travels in a header: well under what HTTP clients accept (undici: 16 KiB for all headers).
    expect(unpaid.headers.get("payment-required")?.length).toBeLessThan(8_192)
    const bazaar = decodePaymentRequiredHeader(unpaid.headers.get("payment-required") ?? "").extensions?.["bazaar"] as
      | Bazaar
      | undefined
    expect(bazaar?.info).toMatchObject({
      input: { type: "http", method: "POST", bodyType: "json" },
      output: { type: "json" }
    })
    const validate = validator(bazaar!.schema)
    expect(validate(bazaar!.info), JSON.stringify(validate.errors)).toBe(true)
    const withBody = (body: unknown) => ({ ...bazaar!.info, input: { ...bazaar!.info.input, body } })
    expect(validate(withBody(real))).toBe(true)
    expect(validate(withBody({ ...real, limit: "many" }))).toBe(false)
  }
})

it("describes a paid MCP tool with the input schema the tool declares", async () => {
  const client = new Client({ name: "discovery", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${service.server.baseUrl}/trade/v1/mcp`)))
  try {
    const declared = (await client.listTools()).tools.find((tool) => tool.name === "tradeSearch")
    const unpaid = await client.callTool({ name: "tradeSearch", arguments: { query: "WETH" } })
    expect(unpaid.isError).toBe(true)
    // The x402 MCP transport: the text wraps the requirements in `x402/error`, as its `data`.
    const offer = JSON.parse((unpaid.content as Array<{ text: string }>)[0]!.text)["x402/error"]?.data
    expect(offer).toEqual(unpaid.structuredContent)
    const bazaar = offer?.extensions?.["bazaar"] as Bazaar | undefined
    expect(bazaar?.info.input).toMatchObject({ type: "mcp", tool: "tradeSearch", inputSchema: declared?.inputSchema })
    const validate = validator(bazaar!.schema)
    expect(validate(bazaar!.info), JSON.stringify(validate.errors)).toBe(true)
  } finally {
    await client.close()
  }
})
