/**
 * The index services against a devnet, as a `ManagedRuntime`: tests drive the chain with viem and
 * read the index through the services, the way the service itself composes them.
 */
import { NodeContext } from "@effect/platform-node"
import { ConfigProvider, Effect, Layer, ManagedRuntime } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AppConfig } from "../../layers/AppConfig.js"
import { ChainIndex } from "../../layers/ChainIndex.js"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { Deployment } from "../../layers/Deployment.js"
import { IndexLive } from "../../layers/Index.js"
import { Venues } from "../../layers/Venues.js"
import type { Manifest } from "../../schema/Manifest.js"

export interface StackOptions {
  readonly dataDir?: string
  readonly settings?: Readonly<Record<string, string>>
}

export const tempDir = (label: string) => mkdtempSync(join(tmpdir(), `arc-${label}-`))

export const indexLayer = (manifest: Manifest, options: StackOptions = {}) => {
  const config = ConfigProvider.fromMap(
    new Map(Object.entries({
      DATA_DIR: options.dataDir ?? tempDir("index"),
      INDEXER_POLL_MS: "50",
      CHECKPOINT_INTERVAL_SEC: "3600",
      ...options.settings
    }))
  ).pipe(ConfigProvider.orElse(() => ConfigProvider.fromEnv()))
  const base = Layer.mergeAll(ChainRpc.Default, Venues.Default).pipe(
    Layer.provideMerge(Layer.succeed(Deployment, Deployment.fromManifest(manifest))),
    Layer.provideMerge(AppConfig.Default),
    Layer.provideMerge(NodeContext.layer)
  )
  return IndexLive.pipe(
    Layer.provideMerge(base),
    Layer.provide(Layer.setConfigProvider(config))
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
