/** The index services against an RPC URL, as the service composes them, for benchmarks. */
import { Layer, ManagedRuntime } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { devnetPaymentSettings } from "../../../devnet/accounts.js"
import { AppConfig } from "../../../layers/AppConfig.js"
import { Deployment, type DeploymentShape } from "../../../layers/Deployment.js"
import { AppServices } from "../../../src/App.js"

export const benchDataDir = () => mkdtempSync(join(tmpdir(), "arc-bench-"))

export const indexRuntime = (deployment: DeploymentShape, settings: Readonly<Record<string, string>> = {}) =>
  ManagedRuntime.make(
    AppServices(Layer.succeed(Deployment, deployment)).pipe(
      Layer.provide(
        AppConfig.withSettings({
          ...devnetPaymentSettings(),
          DATA_DIR: benchDataDir(),
          CHECKPOINT_INTERVAL_SEC: "3600",
          // a quiet chain: latency figures must not include a background scan's simulations
          SAFETY_SCAN: "false",
          ...settings
        })
      )
    )
  )
