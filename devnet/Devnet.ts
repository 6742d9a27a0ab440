/**
 * The embedded devnet as a layer: starts anvil, bootstraps (or reloads a cached bootstrap), writes the
 * manifest and provides `Deployment` from it. Anvil stops when the layer's scope closes. The service's
 * main uses it when `RPC_URL` is unset; tests and `npm run devnet` use it directly.
 */
import { NodeContext } from "@effect/platform-node"
import { Context, Effect, Layer } from "effect"
import { AppConfig } from "../layers/AppConfig.js"
import { Deployment } from "../layers/Deployment.js"
import { devnetConfig, type DevnetOptions } from "./DevnetConfig.js"
import { type DevnetHandle, startDevnet } from "./startDevnet.js"

export { devnetDefaults, type DevnetOptions } from "./DevnetConfig.js"
export type { DevnetHandle } from "./startDevnet.js"

export class Devnet extends Context.Tag("Devnet")<Devnet, DevnetHandle>() {
  /** A devnet with explicit options (tests pass port 0 and their own manifest path). */
  static readonly layerWith = (options: DevnetOptions) =>
    Layer.scoped(Devnet, startDevnet(options)).pipe(Layer.provide(NodeContext.layer))

  /** A devnet configured from the environment (`DEVNET_*`, `MANIFEST_PATH`). */
  static readonly layerConfig = Layer.unwrapEffect(Effect.map(devnetConfig, Devnet.layerWith)).pipe(
    Layer.provide(AppConfig.Default)
  )

  /** `Deployment` read from the running devnet's manifest. */
  static readonly layerDeployment = Layer.effect(
    Deployment,
    Effect.map(Devnet, (devnet) => Deployment.make(devnet.manifest))
  )

  /** Devnet and Deployment together, configured from the environment. */
  static readonly Default = Layer.provideMerge(Devnet.layerDeployment, Devnet.layerConfig)

  static readonly layerWithDeployment = (options: DevnetOptions) =>
    Layer.provideMerge(Devnet.layerDeployment, Devnet.layerWith(options))
}
