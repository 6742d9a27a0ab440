/**
 * `npm run bench`: runs every `scripts/bench/*.ts` in its own Node process (so memory figures are not
 * polluted by another benchmark's heap), in name order, and prints their figures. A name given on the
 * command line runs only the matching files: `npm run bench -- search`.
 */
import { spawnSync } from "node:child_process"
import { readdirSync } from "node:fs"
import { join, resolve } from "node:path"

const dir = resolve(import.meta.dirname, "bench")
const only = process.argv.slice(2)
const files = readdirSync(dir)
  .filter((file) => file.endsWith(".ts"))
  .filter((file) => only.length === 0 || only.some((name) => file.includes(name)))
  .sort()

let failed = 0
for (const file of files) {
  console.log(`\n== ${file}`)
  const started = performance.now()
  const run = spawnSync(process.execPath, ["--import", "tsx", "--expose-gc", join(dir, file)], { stdio: "inherit" })
  console.log(`   (${((performance.now() - started) / 1000).toFixed(1)} s)`)
  if (run.status !== 0) failed++
}
process.exit(failed === 0 ? 0 : 1)
