/**
 * Mounts the MCP server at `POST /trade/v1/mcp` on the service's own HTTP router, beside the HttpApi
 * routes, so the edge middleware wraps it like every endpoint (request id, `nosniff`, the body-size
 * limit, the envelope for a failure that escapes). Refusals the stateless server owes its clients are
 * written here as JSON-RPC errors: a browser origin not allowed (./Origins.ts) gets 403, a GET (no event
 * stream is offered) or DELETE 405, a session id 400, since no session ever exists.
 */
import { HttpApiBuilder, HttpIncomingMessage, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"
import { makeMcpHandler } from "../mcp/McpServer.js"
import { originCheck } from "../mcp/Origins.js"
import { makeTools, type ToolServices } from "../mcp/Tools.js"
import { readText } from "./JsonBody.js"

export const MCP_PATH = "/trade/v1/mcp"

/** A JSON-RPC error not tied to any request id (the request was refused before being read). */
const rpcRefusal = (status: number, message: string, headers: Record<string, string> = {}, code = -32000) =>
  HttpServerResponse.unsafeJson(
    { jsonrpc: "2.0", error: { code, message }, id: null },
    { status, headers }
  )

const methodRefusal = Effect.succeed(
  rpcRefusal(405, "this MCP server is stateless and offers no event stream: send each JSON-RPC call as a POST", {
    allow: "POST"
  })
)

/** Headers the SDK transport reads; the rest of the request stays with the edge. */
const forwarded = ["accept", "content-type", "mcp-protocol-version"] as const

export const McpRoute = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const tools = yield* makeTools
    const handle = makeMcpHandler(tools, yield* Effect.runtime<ToolServices>())
    const originRefused = yield* originCheck
    yield* router.post(
      MCP_PATH,
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const refused = originRefused(request.headers["origin"])
        if (refused !== undefined) return rpcRefusal(403, refused)
        if (request.headers["mcp-session-id"] !== undefined) {
          return rpcRefusal(400, "this MCP server is stateless: send no Mcp-Session-Id (no session is ever issued)")
        }
        const limit = Option.map(yield* HttpIncomingMessage.MaxBodySize, Number)
        const body = yield* readText(request, limit)
        // JSON-RPC 2.0 answers an empty batch with one Invalid Request error; the SDK would accept it silently.
        if (/^\s*\[\s*\]\s*$/.test(body)) {
          return rpcRefusal(400, "Invalid Request: an empty batch", {}, -32600)
        }
        const headers = new Headers()
        for (const name of forwarded) {
          const value = request.headers[name]
          if (value !== undefined) headers.set(name, value)
        }
        // A failure of the SDK itself is a defect: the edge logs it and answers `internal` with the request id.
        return yield* Effect.promise(async () => {
          const answer = await handle(new Request(`http://mcp.local${MCP_PATH}`, { method: "POST", headers, body }))
          const text = await answer.text()
          const contentType = answer.headers.get("content-type")
          return text === ""
            ? HttpServerResponse.empty({ status: answer.status })
            : HttpServerResponse.text(text, { status: answer.status, ...(contentType === null ? {} : { contentType }) })
        })
      })
    )
    yield* router.get(MCP_PATH, methodRefusal)
    yield* router.del(MCP_PATH, methodRefusal)
  })
)
