/**
 * A private devnet for one benchmark: started on a free port, quiet, with its own manifest, and stopped
 * by `stop()` when the benchmark is done. Benchmarks that change chain state never share one.
 */
import { NodeContext } from "@effect/platform-node"
import { Effect, Exit, Scope } from "effect"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { devnetDefaults, type DevnetOptions } from "../../../devnet/DevnetConfig.js"
import { startDevnet } from "../../../devnet/startDevnet.js"

export const benchDevnet = async (label: string, overrides: Partial<DevnetOptions> = {}) => {
  const scope = Effect.runSync(Scope.make())
  const handle = await Effect.runPromise(
    startDevnet({
      ...devnetDefaults,
      port: 0,
      verbose: false,
      manifestPath: join(tmpdir(), `bench-${label}-${process.pid}.json`),
      ...overrides
    }).pipe(Scope.extend(scope), Effect.provide(NodeContext.layer))
  )
  return { handle, manifest: handle.manifest, stop: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}
