/**
 * The HTTP edge under load and under a long fuzz run, against the service as `npm start` runs it (its
 * own process, on a devnet), with a counting JSON-RPC proxy between the service and anvil:
 *
 * - load: 64 keep-alive connections on loopback for `GET /health`, then for `POST /trade/v1/search`,
 *   10 s each: throughput, latency, non-2xx answers, and the chain calls made meanwhile;
 * - fuzz: the test suite's generators (`test/support/fuzz.ts`) for many more cases, counting answers
 *   at 500 or above, without `X-Request-Id`, and errors without the envelope.
 *
 * The load generator runs in this process on the same 2-core machine, so the figures are a floor.
 */
import { Effect, Layer, Option } from "effect"
import fc from "fast-check"
import { execFileSync, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { Agent, request } from "node:http"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { devnetPaymentSettings } from "../../devnet/accounts.js"
import { Devnet, devnetDefaults } from "../../devnet/Devnet.js"
import { httpCase, httpViolation, rawCase, rawViolation } from "../../test/support/fuzz.js"
import { startRpcCounter } from "../../test/support/rpcCounter.js"
import { figure, ms, percentile } from "./lib/report.js"

const CONNECTIONS = 64
const LOAD_SECONDS = 10
const FUZZ_HTTP = Number(process.env["EDGE_FUZZ_HTTP"] ?? 10_000)
const FUZZ_RAW = Number(process.env["EDGE_FUZZ_RAW"] ?? 3_000)
const SEED = Number(process.env["EDGE_FUZZ_SEED"] ?? 8402)

const work = mkdtempSync(join(tmpdir(), "bench-edge-"))

const ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }))
/** CPU seconds (user + system) a process has used, from `/proc` (Linux). */
const cpuSeconds = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond
}

const load = (
  baseUrl: string,
  method: string,
  path: string,
  body?: string
): Promise<{ count: number; failed: number; latencies: Array<number> }> => {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS })
  const latencies: Array<number> = []
  let failed = 0
  const until = performance.now() + LOAD_SECONDS * 1_000
  const one = () =>
    new Promise<void>((done) => {
      const started = performance.now()
      const outgoing = request(`${baseUrl}${path}`, {
        method,
        agent,
        headers: body === undefined ? {} : { "content-type": "application/json" }
      }, (response) => {
        response.resume()
        response.on("end", () => {
          latencies.push(performance.now() - started)
          if (response.statusCode !== 200) failed++
          done()
        })
      })
      outgoing.on("error", () => {
        failed++
        done()
      })
      outgoing.end(body)
    })
  const connection = async () => {
    while (performance.now() < until) await one()
  }
  return Promise.all(Array.from({ length: CONNECTIONS }, connection)).then(() => {
    agent.destroy()
    return { count: latencies.length, failed, latencies: latencies.sort((a, b) => a - b) }
  })
}

const fuzz = async <A>(
  label: string,
  arbitrary: fc.Arbitrary<A>,
  total: number,
  violation: (sent: A) => Promise<string | undefined>
) => {
  const found = new Map<string, number>()
  const started = performance.now()
  for (let done = 0; done < total; done += 500) {
    const batch = fc.sample(arbitrary, { seed: SEED + done, numRuns: Math.min(500, total - done) })
    for (const sent of batch) {
      const problem = await violation(sent).catch((error: unknown) => `no answer: ${String(error)}`)
      if (problem !== undefined) {
        const kind = problem.split(":")[0]!
        if (!found.has(kind)) {
          console.log(`   first ${kind}: ${problem.slice(0, 300)} <- ${JSON.stringify(sent).slice(0, 300)}`)
        }
        found.set(kind, (found.get(kind) ?? 0) + 1)
      }
    }
  }
  const seconds = (performance.now() - started) / 1000
  figure(`fuzz ${label}: cases (seed ${SEED})`, `${total} in ${seconds.toFixed(1)} s`)
  figure(`fuzz ${label}: violations`, found.size === 0 ? "0" : JSON.stringify(Object.fromEntries(found)))
  return [...found.values()].reduce((sum, n) => sum + n, 0)
}

const program = Effect.gen(function*() {
  const devnet = yield* Devnet
  const counter = yield* Effect.acquireRelease(
    Effect.promise(() => startRpcCounter(devnet.manifest.rpcUrl)),
    (counter) => Effect.promise(counter.close)
  )
  const port = 18_000 + Math.floor(Math.random() * 1_000)
  const baseUrl = `http://127.0.0.1:${port}`
  const service = yield* Effect.acquireRelease(
    Effect.sync(() =>
      spawn(process.execPath, ["--import", "tsx", resolve(import.meta.dirname, "../../src/main.ts")], {
        env: {
          ...process.env,
          // An external RPC_URL names no settlement key: the devnet's. Search is served free here, as
          // this measures the edge and search; what a payment adds is `payment-http`'s figure.
          ...devnetPaymentSettings(),
          PRICE_SEARCH: "0",
          PORT: String(port),
          RPC_URL: counter.url,
          MANIFEST_PATH: devnet.manifestPath,
          DATA_DIR: join(work, "data")
        },
        stdio: "ignore"
      })
    ),
    (child) => Effect.sync(() => child.kill("SIGTERM"))
  )
  yield* Effect.promise(async () => {
    for (let waited = 0; waited < 60_000; waited += 100) {
      const status = await fetch(`${baseUrl}/health`).then(
        async (response) => ((await response.json()) as { status: string }).status,
        () => "starting"
      )
      if (status === "ok") return
      await new Promise((done) => setTimeout(done, 100))
    }
    throw new Error("the service did not report ok within 60 s")
  })

  for (
    const [label, method, path, body] of [
      ["GET /health", "GET", "/health", undefined],
      ["POST /trade/v1/search WETH", "POST", "/trade/v1/search", JSON.stringify({ query: "WETH", limit: 10 })]
    ] as const
  ) {
    const callsBefore = counter.calls()
    const cpuBefore = cpuSeconds(service.pid!)
    const result = yield* Effect.promise(() => load(baseUrl, method, path, body))
    const calls = counter.calls() - callsBefore
    const cpuPerAnswer = (cpuSeconds(service.pid!) - cpuBefore) * 1_000 / result.count
    figure(
      `${label}: ${CONNECTIONS} connections, ${LOAD_SECONDS} s`,
      `${Math.round(result.count / LOAD_SECONDS)} req/s`
    )
    figure(
      `${label}: latency p50 / p99`,
      `${ms(percentile(result.latencies, 50))} / ${ms(percentile(result.latencies, 99))}`
    )
    figure(`${label}: non-200 answers`, String(result.failed))
    figure(`${label}: chain calls meanwhile`, `${calls} (${result.count} requests)`)
    figure(`${label}: service CPU per answer`, ms(cpuPerAnswer))
  }

  const violations = (yield* Effect.promise(() =>
    fuzz("well-formed HTTP", httpCase, FUZZ_HTTP, (sent) =>
      httpViolation(baseUrl, sent))
  )) + (yield* Effect.promise(() => fuzz("raw protocol", rawCase, FUZZ_RAW, (sent) => rawViolation(port, sent))))
  if (violations > 0) yield* Effect.die(new Error(`${violations} answers broke the edge's rules`))
})

await Effect.runPromise(
  Effect.scoped(program).pipe(
    Effect.provide(
      Devnet.layerWith({
        ...devnetDefaults,
        port: 0,
        verbose: false,
        manifestPath: join(work, "manifest.json"),
        cacheDir: Option.some(resolve(import.meta.dirname, "../../.cache/devnet"))
      }).pipe(Layer.orDie)
    )
  )
).finally(() => rmSync(work, { recursive: true, force: true }))
