/**
 * `npm start`'s memory default (package.json `config.nodeOptions`, scripts/serviceNodeOptions.ts): the
 * service process it starts has V8's heap limit those options set, an operator's `NODE_OPTIONS` replaces
 * it, and the processes that start `src/main.ts` themselves (the benches', the cluster's) get the same.
 * The start script is run by npm itself, as an operator runs it, with only its entry file swapped for a
 * probe that reports the limit.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { defaultNodeOptions, serviceNodeOptions } from "../../scripts/serviceNodeOptions.js"

const root = resolve(import.meta.dirname, "../..")
const startScript = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  readonly scripts: { readonly start: string }
}).scripts.start
/** The service's own command: what follows the contracts' compile step. */
const serviceCommand = startScript.split(" && ").at(-1)!

const flag = (options: string, name: string) => Number(new RegExp(`--${name}=(\\d+)`).exec(options)?.[1])
/** V8's heap limit in MB: the old generation's, plus three semi-spaces for the young generation. */
const limitOf = (options: string) => flag(options, "max-old-space-size") + 3 * flag(options, "max-semi-space-size")

const dir = mkdtempSync(join(tmpdir(), "node-options-"))
const probe = join(dir, "probe.mjs")
writeFileSync(
  probe,
  `import v8 from "node:v8"\nconsole.log(JSON.stringify({ limit: v8.getHeapStatistics().heap_size_limit / 2 ** 20 }))\n`
)

/** The start script's service command with `probe` in place of src/main.ts, run through npm. */
const started = (nodeOptions: string | undefined) => {
  const { NODE_OPTIONS: _, ...env } = process.env
  const output = execFileSync("npm", ["exec", "-c", serviceCommand.replace("src/main.ts", probe)], {
    cwd: root,
    env: nodeOptions === undefined ? env : { ...env, NODE_OPTIONS: nodeOptions },
    encoding: "utf8"
  })
  return JSON.parse(output.trim().split("\n").at(-1)!) as { readonly limit: number }
}

/** A node process given `NODE_OPTIONS` as serviceProcess and the cluster give it. */
const spawnedWith = (nodeOptions: string) => {
  const { NODE_OPTIONS: _, ...env } = process.env
  const output = execFileSync(process.execPath, [probe], {
    env: { ...env, NODE_OPTIONS: nodeOptions },
    encoding: "utf8"
  })
  return JSON.parse(output.trim()) as { readonly limit: number }
}

describe("the service's node options", () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("npm start's service process has the default heap limit", () => {
    expect(serviceCommand).toContain("src/main.ts")
    const limit = limitOf(defaultNodeOptions)
    expect(limit).toBeGreaterThan(0)
    expect(started(undefined).limit).toBe(limit)
  })

  it("an operator's NODE_OPTIONS replaces the default", () => {
    const semi = flag(defaultNodeOptions, "max-semi-space-size")
    expect(started("--max-old-space-size=1024").limit).toBe(1024 + 3 * semi)
  })

  it("a service process started from the scripts gets the same options", () => {
    expect(spawnedWith(serviceNodeOptions(undefined)).limit).toBe(started(undefined).limit)
    expect(spawnedWith(serviceNodeOptions("--max-old-space-size=1024")).limit).toBe(
      started("--max-old-space-size=1024").limit
    )
  })
})
