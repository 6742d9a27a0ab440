/**
 * The registry this project installs from serves only some platforms' builds of packages that ship
 * native binaries as optional dependencies (anvil, rollup, msgpackr-extract). npm then leaves those
 * platforms out of package-lock.json, and `npm ci` refuses a lock that lacks them. This adds a
 * version-only optional entry for each missing one: `npm ci` accepts the lock and skips them as it
 * skips any optional package that is not for this machine. Run after `npm install` changes the lock.
 */
import { readFileSync, writeFileSync } from "node:fs"

interface LockEntry {
  readonly version?: string
  readonly optional?: boolean
  readonly optionalDependencies?: Record<string, string>
}

const path = "package-lock.json"
const lock = JSON.parse(readFileSync(path, "utf8")) as { packages: Record<string, LockEntry> }
const packages = lock.packages
let added = 0
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${location === "" ? "" : `${location}/`}node_modules/${name}`
    if (packages[nested] === undefined && packages[`node_modules/${name}`] === undefined) {
      packages[`node_modules/${name}`] = { version, optional: true }
      added++
    }
  }
}
const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0))
)
writeFileSync(path, `${JSON.stringify({ ...lock, packages: sorted }, null, 2)}\n`)
console.log(`lockfile: ${added} optional platform entries added`)
