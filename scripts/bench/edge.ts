/**
 * The HTTP edge beside its yardsticks, and under a long fuzz run.
 *
 * - speed: the service as `npm start` runs it (its own process, on a devnet, behind a counting JSON-RPC
 *   proxy), a minimal `@effect/platform` HttpApi server and a bare Node server (./lib/edgeBaselines.ts),
 *   each loaded by autocannon with 64 keep-alive connections on `GET /health`, an unpaid search (402)
 *   and a receipt request whose body fails its schema (400). Rounds alternate the servers, so each ratio
 *   compares figures taken moments apart on the same busy machine;
 * - fuzz: the test suite's generators (`test/support/fuzz.ts`) for many more cases, counting answers
 *   at 500 or above, without `X-Request-Id`, and errors without the envelope.
 *
 * `EDGE_SECONDS` (5) per measurement after `EDGE_WARMUP_SECONDS` (2) of untimed load on each server,
 * `EDGE_ROUNDS` (2), `EDGE_PROBES` (a word of the requests to
 * measure, e.g. `health`; all by default); `EDGE_WS=off` runs the service without pushed heads;
 * `EDGE_CPU_PROF=<dir>` writes a CPU profile of the service and of the minimal HttpApi server and
 * prints where their time went.
 */
import { Effect, Layer, Option } from "effect"
import fc from "fast-check"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { extname, join, resolve } from "node:path"
import { devnetPaymentSettings } from "../../devnet/accounts.js"
import { Devnet, devnetDefaults } from "../../devnet/Devnet.js"
import { websocketOf } from "../../layers/ChainRpc.js"
import { httpCase, httpViolation, rawCase, rawViolation } from "../../test/support/fuzz.js"
import { mainThreadProfile, summarise } from "./lib/cpuProfile.js"
import {
  baselineScript,
  check,
  countingProxy,
  cpuSeconds,
  measure,
  type Measured,
  probes,
  serve,
  stop,
  waitFor
} from "./lib/edgeLoad.js"
import { figure, ms } from "./lib/report.js"

const CONNECTIONS = 64
const SECONDS = Number(process.env["EDGE_SECONDS"] ?? 5)
const ROUNDS = Number(process.env["EDGE_ROUNDS"] ?? 2)
const WARMUP_SECONDS = Number(process.env["EDGE_WARMUP_SECONDS"] ?? 2)
// A word of a request's label measures only the requests it names, e.g. `EDGE_PROBES=health`.
const PROBES = probes.filter((probe) => probe.label.includes(process.env["EDGE_PROBES"] ?? ""))
const PROFILE_DIR = process.env["EDGE_CPU_PROF"] === undefined ? undefined : resolve(process.env["EDGE_CPU_PROF"])
const FUZZ_HTTP = Number(process.env["EDGE_FUZZ_HTTP"] ?? 10_000)
const FUZZ_RAW = Number(process.env["EDGE_FUZZ_RAW"] ?? 3_000)
const SEED = Number(process.env["EDGE_FUZZ_SEED"] ?? 8402)
const WS_URL = process.env["EDGE_WS"]

const work = mkdtempSync(join(tmpdir(), "bench-edge-"))
if (PROFILE_DIR !== undefined) mkdirSync(PROFILE_DIR, { recursive: true })

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

const row = (m: Measured) =>
  `${Math.round(m.perSecond).toLocaleString("en").padStart(7)} req/s  p50 ${ms(m.p50).padStart(8)}  ` +
  `p99 ${ms(m.p99).padStart(8)}  CPU ${ms(m.cpuMsPerAnswer)}/answer${m.wrong === 0 ? "" : `  ${m.wrong} WRONG`}`

const program = Effect.gen(function*() {
  const devnet = yield* Devnet
  const counter = yield* Effect.acquireRelease(
    Effect.promise(() => countingProxy(devnet.manifest.rpcUrl)),
    (counter) => Effect.promise(counter.close)
  )
  const port = 18_000 + Math.floor(Math.random() * 1_000)
  const start = (name: string, script: string, args: ReadonlyArray<string>, at: number, env = {}) =>
    Effect.acquireRelease(
      Effect.sync(() => serve(name, script, args, at, env, PROFILE_DIR)),
      (served) => Effect.promise(() => stop(served))
    )
  const service = yield* start(
    "service",
    resolve(import.meta.dirname, `../../src/main${extname(import.meta.filename)}`),
    [],
    port,
    {
      // An external RPC_URL names no settlement key: the devnet's. Search keeps its price, so an unpaid
      // search is answered with the 402 offer.
      ...devnetPaymentSettings(),
      PORT: String(port),
      RPC_URL: counter.url,
      // Pushed heads come from the node itself, as under `npm start` (the counting proxy forwards plain
      // JSON-RPC calls only); `EDGE_WS=off` measures the service without them.
      WS_URL: WS_URL === "off" ? "off" : websocketOf(devnet.manifest.rpcUrl),
      MANIFEST_PATH: devnet.manifestPath,
      DATA_DIR: join(work, "data")
    }
  )
  const httpApi = yield* start("minimal-httpapi", baselineScript, ["httpapi", String(port + 1)], port + 1)
  const bare = yield* start("bare-node", baselineScript, ["node", String(port + 2)], port + 2)
  const servers = [service, httpApi, bare]
  yield* Effect.promise(() =>
    Promise.all([
      waitFor(service, async (response) => ((await response.json()) as { status: string }).status === "ok"),
      waitFor(httpApi, async (response) => response.ok),
      waitFor(bare, async (response) => response.ok)
    ])
  )
  for (const served of servers) for (const probe of PROBES) yield* Effect.promise(() => check(served, probe))

  // What the service spends with no request at all, counted in its CPU per answer below: just after
  // start-up most of it is the safety scan's first pass over every token; settled, the head poll.
  const idleShare = Effect.gen(function*() {
    const before = cpuSeconds(service.child.pid!)
    yield* Effect.sleep("3 seconds")
    return `${((cpuSeconds(service.child.pid!) - before) * 100 / 3).toFixed(1)} % of a core`
  })
  figure("service CPU while idle, first 3 s after ready", yield* idleShare)
  figure("service CPU while idle, 3 s later", yield* idleShare)
  // Untimed load first, so no server is measured while its code is still being compiled by the JIT.
  for (const probe of PROBES) {
    for (const served of servers) yield* Effect.promise(() => measure(served, probe, CONNECTIONS, WARMUP_SECONDS))
  }

  const results = new Map<string, Array<Measured>>()
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`   round ${round} of ${ROUNDS}: ${CONNECTIONS} connections, ${SECONDS} s each`)
    for (const probe of PROBES) {
      for (const served of servers) {
        const callsBefore = yield* Effect.promise(counter.calls)
        const measured = yield* Effect.promise(() => measure(served, probe, CONNECTIONS, SECONDS))
        const calls = served === service ? `  chain calls ${(yield* Effect.promise(counter.calls)) - callsBefore}` : ""
        figure(`${probe.label}: ${served.name}`, row(measured) + calls)
        const key = `${probe.label}|${served.name}`
        results.set(key, [...(results.get(key) ?? []), measured])
      }
    }
  }
  console.log("   service / minimal HttpApi, req/s by round")
  for (const probe of PROBES) {
    const ours = results.get(`${probe.label}|service`)!
    const theirs = results.get(`${probe.label}|minimal-httpapi`)!
    figure(probe.label, ours.map((m, i) => `${(100 * m.perSecond / theirs[i]!.perSecond).toFixed(0)} %`).join(", "))
  }
  if ([...results.values()].flat().some((m) => m.wrong > 0)) {
    yield* Effect.die(new Error("a server answered with an unexpected status under load"))
  }

  if (PROFILE_DIR !== undefined) {
    yield* Effect.promise(() => Promise.all(servers.map(stop)))
    summarise(mainThreadProfile(join(PROFILE_DIR, service.name)))
    summarise(mainThreadProfile(join(PROFILE_DIR, httpApi.name)))
    return
  }
  const violations = (yield* Effect.promise(() =>
    fuzz("well-formed HTTP", httpCase, FUZZ_HTTP, (sent) =>
      httpViolation(service.baseUrl, sent))
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
