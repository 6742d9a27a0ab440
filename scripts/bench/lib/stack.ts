/** The index services against an RPC URL, as the service composes them, for benchmarks. */
import { NodeContext } from "@effect/platform-node"
import { ConfigProvider, Layer, ManagedRuntime } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AppConfig } from "../../../layers/AppConfig.js"
import { ChainIndex } from "../../../layers/ChainIndex.js"
import { ChainRpc } from "../../../layers/ChainRpc.js"
import { Deployment, type DeploymentShape } from "../../../layers/Deployment.js"
import { Indexer } from "../../../layers/Indexer.js"
import { Venues } from "../../../layers/Venues.js"

export const benchDataDir = () => mkdtempSync(join(tmpdir(), "arc-bench-"))

export const indexRuntime = (deployment: DeploymentShape, settings: Readonly<Record<string, string>> = {}) => {
  const config = ConfigProvider.fromMap(
    new Map(Object.entries({
      DATA_DIR: benchDataDir(),
      CHECKPOINT_INTERVAL_SEC: "3600",
      ...settings
    }))
  ).pipe(ConfigProvider.orElse(() => ConfigProvider.fromEnv()))
  const base = Layer.mergeAll(ChainRpc.Default, Venues.Default).pipe(
    Layer.provideMerge(Layer.succeed(Deployment, deployment)),
    Layer.provideMerge(AppConfig.Default),
    Layer.provideMerge(NodeContext.layer)
  )
  return ManagedRuntime.make(
    Indexer.Default.pipe(
      Layer.provideMerge(ChainIndex.Default),
      Layer.provideMerge(base),
      Layer.provide(Layer.setConfigProvider(config))
    )
  )
}
