/**
 * The index services against a devnet, as a `ManagedRuntime`: tests drive the chain with viem and
 * read the index through the services, the way the service itself composes them.
 */
import { Effect, Layer, ManagedRuntime } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AppConfig } from "../../layers/AppConfig.js"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { Deployment } from "../../layers/Deployment.js"
import type { Manifest } from "../../schema/Manifest.js"
import { AppServices } from "../../src/App.js"
import { ChainIndex } from "../../src/indexer/ChainIndex.js"

export interface StackOptions {
  readonly dataDir?: string
  readonly settings?: Readonly<Record<string, string>>
}

export const tempDir = (label: string) => mkdtempSync(join(tmpdir(), `arc-${label}-`))

export const indexLayer = (manifest: Manifest, options: StackOptions = {}) => {
  // The same composition the service runs (and an embedding program gets from the library entry).
  return AppServices(Layer.succeed(Deployment, Deployment.fromManifest(manifest))).pipe(
    Layer.provide(AppConfig.withSettings({
      DATA_DIR: options.dataDir ?? tempDir("index"),
      INDEXER_POLL_MS: "50",
      CHECKPOINT_INTERVAL_SEC: "3600",
      ...options.settings
    }))
  )
}

export const indexRuntime = (manifest: Manifest, options: StackOptions = {}) =>
  ManagedRuntime.make(indexLayer(manifest, options))

/** The first snapshot at or past the chain's current head that is not catching up. */
export const synced = Effect.gen(function*() {
  const rpc = yield* ChainRpc
  const index = yield* ChainIndex
  const head = Number(yield* rpc.request<string>("eth_blockNumber"))
  return yield* index.waitFor(head)
}).pipe(Effect.timeout("30 seconds"))
