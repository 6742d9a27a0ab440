/**
 * A promise rejected with no handler does not end the service's process: the guard the entry point
 * installs logs it at error level with its reason and the process lives on. Run in its own process (the
 * test runner has its own handler for these).
 */
import { spawnSync } from "node:child_process"
import { resolve } from "node:path"
import { expect, it } from "vitest"

it("logs a rejection with no handler, with its reason, and keeps the process alive", () => {
  const run = spawnSync(process.execPath, [
    "--import",
    "tsx",
    resolve(import.meta.dirname, "../support/rejectionFixture.ts")
  ], {
    encoding: "utf8",
    timeout: 60_000
  })
  const output = run.stdout + run.stderr
  expect(run.status, output).toBe(0)
  expect(output).toMatch(/level=ERROR .*a promise rejected with no handler.*reason=.*abandoned by a library/s)
  expect(output).toContain("still serving")
})
