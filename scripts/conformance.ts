/**
 * `npm run conformance`: the MCP conformance suite (`@modelcontextprotocol/conformance`, server
 * scenarios) against `/trade/v1/mcp` of the service on its own private devnet. The suite needs Node 22,
 * run from npm's pinned `node` package; the service itself runs on this Node.
 *
 * Only the scenarios that apply to a stateless server with tools and nothing else run (docs/mcp.md
 * says why each other one does not apply); a name given on the command line runs just that scenario:
 * `npm run conformance -- ping`.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { servedService } from "./bench/lib/served.js"

const NODE = "node@22.23.3"
const SUITE = resolve(import.meta.dirname, "../node_modules/@modelcontextprotocol/conformance/dist/index.js")

/** Each applies to any MCP server over Streamable HTTP, whatever it offers. */
export const APPLICABLE = ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"] as const

/** Runs the suite in its own process; the service answers from this one's event loop meanwhile. */
const suite = (args: ReadonlyArray<string>, cwd: string) =>
  new Promise<number | null>((resolve, reject) => {
    const child = spawn("npx", ["-y", NODE, SUITE, ...args], { stdio: "inherit", cwd, timeout: 300_000 })
    child.on("error", reject)
    child.on("exit", (code) => resolve(code))
  })

const scenarios = process.argv.length > 2 ? process.argv.slice(2) : APPLICABLE
const service = await servedService("conformance")
// The suite writes its results under its working directory: a scratch one, removed at the end.
const results = mkdtempSync(join(tmpdir(), "mcp-conformance-"))
const failed: Array<string> = []
try {
  for (const scenario of scenarios) {
    if (await suite(["server", "--url", `${service.baseUrl}/trade/v1/mcp`, "--scenario", scenario], results) !== 0) {
      failed.push(scenario)
    }
  }
} finally {
  await service.stop()
  rmSync(results, { recursive: true, force: true })
}
console.log(
  failed.length === 0
    ? `\nconformance: ${scenarios.length} of ${scenarios.length} scenarios passed`
    : `\nconformance: failed ${failed.join(", ")}`
)
process.exit(failed.length === 0 ? 0 : 1)
