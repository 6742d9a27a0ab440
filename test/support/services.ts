/**
 * The service's composition for tests, set up in one place: the same `AppServices` the service runs
 * (and an embedding program gets from the library entry), with test settings over the environment:
 * a fresh `DATA_DIR` (test files never share a checkpoint), fast head polling, no periodic checkpoint,
 * and no background safety scan (it would simulate every seeded token in every test file's runtime on
 * the shared devnet; test/search/scan.test.ts turns it on).
 */
import { Effect, Layer, ManagedRuntime } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { devnetPaymentSettings } from "../../devnet/accounts.js"
import { AppConfig } from "../../layers/AppConfig.js"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { Deployment } from "../../layers/Deployment.js"
import type { Manifest } from "../../schema/Manifest.js"
import { AppServices } from "../../src/App.js"
import { ChainIndex } from "../../src/indexer/ChainIndex.js"

export const tempDir = (label: string) => mkdtempSync(join(tmpdir(), `arc-${label}-`))

/** Settings by name over the environment; `overrides` win. */
export const testSettings = (overrides: Readonly<Record<string, string>> = {}) =>
  AppConfig.withSettings({
    ...devnetPaymentSettings(),
    DATA_DIR: tempDir("data"),
    INDEXER_POLL_MS: "50",
    CHECKPOINT_INTERVAL_SEC: "3600",
    SAFETY_SCAN: "false",
    ...overrides
  })

/** `Deployment` straight from a devnet manifest. */
export const deploymentOf = (manifest: Manifest) => Layer.succeed(Deployment, Deployment.make(manifest))

export interface StackOptions {
  readonly dataDir?: string
  readonly settings?: Readonly<Record<string, string>>
}

export const indexLayer = (manifest: Manifest, options: StackOptions = {}) =>
  AppServices(deploymentOf(manifest)).pipe(
    Layer.provide(testSettings({
      ...(options.dataDir === undefined ? {} : { DATA_DIR: options.dataDir }),
      ...options.settings
    }))
  )

export const indexRuntime = (manifest: Manifest, options: StackOptions = {}) =>
  ManagedRuntime.make(indexLayer(manifest, options))

/** The first snapshot at or past the chain's current head that is not catching up. */
export const synced = Effect.gen(function*() {
  const rpc = yield* ChainRpc
  const index = yield* ChainIndex
  const head = Number(yield* rpc.request<string>("eth_blockNumber"))
  return yield* index.waitFor(head)
}).pipe(Effect.timeout("30 seconds"))
