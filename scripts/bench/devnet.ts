/**
 * Start-up figures: the devnet's cold bootstrap and cached start (in-process, through the same layer
 * `npm start` uses), and the whole service from process spawn until `/health` says `ok` (devnet up,
 * index caught up, HTTP serving).
 */
import { Effect, Layer, Option } from "effect"
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { Devnet, devnetDefaults, type DevnetOptions } from "../../devnet/Devnet.js"
import { figure, ms } from "./lib/report.js"

const work = mkdtempSync(join(tmpdir(), "bench-devnet-"))
const cacheDir = join(work, "cache")
const options: DevnetOptions = {
  ...devnetDefaults,
  port: 0,
  verbose: false,
  manifestPath: join(work, "manifest.json"),
  cacheDir: Option.some(cacheDir)
}

const timeDevnet = (opts: DevnetOptions) =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const context = yield* Layer.build(Devnet.layerWith(opts))
    return (yield* Effect.provide(Devnet, context)).timings
  })))

const serviceStart = async (): Promise<number> => {
  const port = 18_000 + Math.floor(Math.random() * 1_000)
  const started = performance.now()
  const child = spawn(process.execPath, ["--import", "tsx", resolve(import.meta.dirname, "../../src/main.ts")], {
    env: {
      ...process.env,
      PORT: String(port),
      DEVNET_PORT: "0",
      DEVNET_DIR: work,
      DEVNET_CACHE_DIR: cacheDir
    },
    stdio: "ignore"
  })
  try {
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
        async (response) => response.status === 200 && ((await response.json()) as { status: string }).status === "ok",
        () => false
      )
      if (ok) return performance.now() - started
      if (performance.now() - started > 60_000) throw new Error("service did not answer /health within 60 s")
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  } finally {
    child.kill("SIGTERM")
  }
}

const cold = await timeDevnet({ ...options, cacheDir: Option.none() })
figure("devnet cold: anvil up", ms(cold.anvilMs))
figure("devnet cold: bootstrap (deploy + seed market)", ms(cold.bootstrapMs))
figure("devnet cold: total", ms(cold.totalMs))

await timeDevnet(options) // fills the cache
const cached: Array<number> = []
for (let i = 0; i < 5; i++) cached.push((await timeDevnet(options)).totalMs)
figure("devnet cached start (median of 5)", ms(cached.sort((a, b) => a - b)[2]!))

figure("service start to health ok (cached devnet)", ms(await serviceStart()))
rmSync(cacheDir, { recursive: true, force: true })
figure("service start to health ok (cold devnet)", ms(await serviceStart()))
rmSync(work, { recursive: true, force: true })
