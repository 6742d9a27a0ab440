/**
 * The MCP protocol side: a stateless Streamable HTTP server on the SDK. Each POST gets a fresh SDK
 * `Server` and transport (no session survives a request), answering with JSON, never an event stream;
 * `tools/list` lists the tools derived from the table and `tools/call` runs `callTool` on the
 * service's own runtime, so the tools share the HTTP edge's services, payment gate included.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js"
import { Runtime } from "effect"
import { SERVICE_NAME, SERVICE_VERSION } from "../../schema/Service.js"
import { NEXT_GUIDE, TRADE_FLOW } from "./Guide.js"
import type { Tool, ToolServices } from "./Tools.js"

const INSTRUCTIONS =
  "Trade checkpoint for Arc (eip155:5042): finds tokens, judges whether they can be sold back, prices " +
  "trades across venues and returns UNSIGNED transactions; it never signs or sends. " +
  `${TRADE_FLOW} ${NEXT_GUIDE}`

/** Answers one JSON-RPC POST (already read into a web `Request`) with a web `Response`. */
export const makeMcpHandler = (tools: ReadonlyArray<Tool>, runtime: Runtime.Runtime<ToolServices>) => {
  const byName = new Map(tools.map((tool) => [tool.name, tool]))
  const listed = tools.map(({ description, inputSchema, name, outputSchema }) => ({
    name,
    description,
    inputSchema,
    outputSchema
  }))
  return async (request: Request): Promise<Response> => {
    const server = new Server(
      { name: SERVICE_NAME, version: SERVICE_VERSION },
      { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS }
    )
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }))
    server.setRequestHandler(CallToolRequestSchema, (call, extra) => {
      const tool = byName.get(call.params.name)
      if (tool === undefined) {
        throw new McpError(ErrorCode.InvalidParams, `unknown tool ${JSON.stringify(call.params.name.slice(0, 64))}`)
      }
      return Runtime.runPromise(runtime)(tool.call(call.params.arguments, call.params._meta), {
        signal: extra.signal
      })
    })
    // No `sessionIdGenerator`: the transport runs stateless and issues no session id.
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
    await server.connect(transport)
    try {
      return await transport.handleRequest(request)
    } finally {
      await server.close()
    }
  }
}
