/**
 * A start refused for a reason the operator fixes is one error line with the fix and the process exits
 * non-zero: no stack trace into the module that found it. Run as `npm start` runs the service, on the
 * shared devnet with a venue file whose v2 init code hash is wrong.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { afterAll, expect, it } from "vitest"
import { sharedManifest } from "../support/devnet.js"

const dir = mkdtempSync(join(tmpdir(), "refusal-"))
let child: ChildProcess | undefined

/** Starts the service on the shared devnet with a v2 init code hash that is wrong; its output and exit code. */
const refusedStart = async (env: Readonly<Record<string, string>> = {}) => {
  const manifest = sharedManifest()
  const file = manifest.venues!
  const venues = {
    ...file,
    venues: file.venues.map((venue) =>
      venue.id === "uniswap-v2" ? { ...venue, pairInitCodeHash: `0x${"cd".repeat(32)}` } : venue
    )
  }
  writeFileSync(join(dir, "manifest.json"), JSON.stringify(manifest))
  writeFileSync(join(dir, "venues.json"), JSON.stringify(venues))
  child = spawn(process.execPath, ["--import", "tsx", resolve(import.meta.dirname, "../../src/main.ts")], {
    env: {
      ...process.env,
      PORT: String(20_000 + Math.floor(Math.random() * 10_000)),
      RPC_URL: manifest.rpcUrl,
      MANIFEST_PATH: join(dir, "manifest.json"),
      VENUES_FILE: join(dir, "venues.json"),
      DATA_DIR: join(dir, "data"),
      PAY_TO: manifest.accounts[0]!.address,
      SETTLEMENT_PRIVATE_KEY: manifest.accounts[0]!.privateKey,
      SAFETY_SCAN: "false",
      ...env
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let log = ""
  child.stdout!.on("data", (chunk) => (log += chunk))
  child.stderr!.on("data", (chunk) => (log += chunk))
  const code = await new Promise<number | null>((done) => child!.once("exit", done))
  return { code, log }
}

const rightV2Hash = () => {
  const right = sharedManifest().venues!.venues.find((venue) => venue.id === "uniswap-v2")
  return right?.family === "v2" ? right.pairInitCodeHash : undefined
}
afterAll(() => {
  if (child?.exitCode === null) child.kill("SIGKILL")
  rmSync(dir, { recursive: true, force: true })
})

it("a wrong init code hash stops the start with one line naming the venue and the right value", async () => {
  const { code, log } = await refusedStart()
  expect(code, log).toBe(1)
  const errors = log.split("\n").filter((line) => /\bERROR\b/.test(line))
  expect(errors).toHaveLength(1)
  expect(errors[0]).toContain("refused to start: venue uniswap-v2: pairInitCodeHash 0xcdcd")
  expect(errors[0]).toContain(`hashes to ${rightV2Hash()}: set pairInitCodeHash to it`)
  // no stack trace anywhere in the output
  expect(log).not.toMatch(/\n\s+at /)
  expect(log).not.toContain(".ts:")
}, 120_000)

it("LOG_FORMAT=json: every line one JSON object, the refusal among them", async () => {
  const { code, log } = await refusedStart({ LOG_FORMAT: "json" })
  expect(code, log).toBe(1)
  const lines = log.trim().split("\n").map((line) => JSON.parse(line) as { logLevel: string; message: unknown })
  const errors = lines.filter((line) => line.logLevel === "ERROR")
  expect(errors).toHaveLength(1)
  expect(String(errors[0]!.message)).toMatch(/^refused to start: venue uniswap-v2: pairInitCodeHash 0xcdcd/)
}, 120_000)
