/**
 * The router's invariant fuzz at length (`npm run bench -- router-fuzz`): the same engine and checks as
 * test/router/invariants.test.ts, run through vitest (it needs the suite's devnet set-up) with
 * `ROUTER_FUZZ_RUNS` plans (default 1,000) from `ROUTER_FUZZ_SEED` (default: a fresh one, printed, so a
 * failure replays).
 */
import { spawnSync } from "node:child_process"
import { resolve } from "node:path"
import { figure } from "./lib/report.js"

const runs = process.env["ROUTER_FUZZ_RUNS"] ?? "1000"
const seed = process.env["ROUTER_FUZZ_SEED"] ?? String(Math.floor(Math.random() * 2 ** 31))
const root = resolve(import.meta.dirname, "..", "..")
console.log(`router fuzz: ${runs} plans from seed ${seed}`)
const run = spawnSync(
  process.execPath,
  [resolve(root, "node_modules", "vitest", "vitest.mjs"), "run", "test/router/invariants.test.ts"],
  { cwd: root, env: { ...process.env, ROUTER_FUZZ_RUNS: runs, ROUTER_FUZZ_SEED: seed }, encoding: "utf8" }
)
const line = /router fuzz: (\{.*\})/.exec(run.stdout)
if (run.status !== 0 || line?.[1] === undefined) {
  console.log(run.stdout.slice(-4_000), run.stderr.slice(-2_000))
  console.log(`router fuzz FAILED (seed ${seed})`)
  process.exit(1)
}
const stats = JSON.parse(line[1]) as {
  plans: number
  executed: number
  refused: Record<string, number>
  seconds: number
}
const refused = Object.values(stats.refused).reduce((a, b) => a + b, 0)
figure("router fuzz plans (all invariants held)", `${stats.plans} (seed ${seed})`)
figure("… executed / refused", `${stats.executed} / ${refused}`)
figure("… refusals by error", Object.entries(stats.refused).map(([k, v]) => `${k} ${v}`).join(", "))
figure("… plans per second (snapshot, plan, send, snapshot, check)", (stats.plans / stats.seconds).toFixed(1))
