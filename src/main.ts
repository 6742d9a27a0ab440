/**
 * `npm start`: the service on its embedded devnet, or on the chain `RPC_URL` names.
 */
import type { FileSystem } from "@effect/platform"
import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Option } from "effect"
import { Devnet } from "../devnet/Devnet.js"
import { AppConfig } from "../layers/AppConfig.js"
import { Deployment } from "../layers/Deployment.js"
import { appWith } from "./App.js"

const DeploymentLive = Layer.unwrapEffect(
  Effect.map(
    AppConfig,
    (config): Layer.Layer<Deployment, unknown, AppConfig | FileSystem.FileSystem> =>
      Option.isSome(config.rpcUrl) ? Deployment.layerManifestFile : Devnet.Default
  )
)

Layer.launch(appWith(DeploymentLive)).pipe(NodeRuntime.runMain)
