import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/globalSetup.ts"],
    setupFiles: ["test/support/effectVitestReset.ts", "test/support/chainTimeouts.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // A worker runs its test files one after another in one module cache: the service's modules are
    // loaded once per worker, not once per file (most of the suite's time when each file loaded its own).
    // Files share no mutable module state: devnets, servers and runtimes are each file's, stopped after it.
    isolate: false
  }
})
