/**
 * Vitest global setup: one shared devnet for the whole suite, on a free port, its manifest provided
 * to every test file through `inject("devnet")`. `npm test` compiles the contracts first; the devnet
 * loads the bootstrap cache when it matches (well under a second) and fills it otherwise.
 * Tests that change chain state destructively start a private devnet (`startDevnet` in ./devnet.ts).
 */
import { NodeContext } from "@effect/platform-node"
import { Effect, Exit, Option, Scope } from "effect"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { TestProject } from "vitest/node"
import { devnetDefaults } from "../../devnet/DevnetConfig.js"
import { startDevnet } from "../../devnet/startDevnet.js"
import type { Manifest } from "../../schema/Manifest.js"

export interface SharedDevnet {
  readonly manifest: Manifest
  readonly manifestPath: string
  readonly source: "cache" | "bootstrap"
}

declare module "vitest" {
  export interface ProvidedContext {
    devnet: SharedDevnet
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const scope = Effect.runSync(Scope.make())
  const manifestPath = join(tmpdir(), `arc-devnet-shared-${process.pid}.json`)
  const devnet = await Effect.runPromise(
    startDevnet({
      ...devnetDefaults,
      port: 0,
      manifestPath,
      cacheDir: Option.some(process.env["DEVNET_CACHE_DIR"] ?? devnetDefaults.cacheDir.pipe(Option.getOrThrow)),
      verbose: true
    }).pipe(
      Scope.extend(scope),
      Effect.provide(NodeContext.layer),
      Effect.onError(() => Scope.close(scope, Exit.void))
    )
  )
  project.provide("devnet", { manifest: devnet.manifest, manifestPath, source: devnet.source })
  return async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}
