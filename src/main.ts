/**
 * `npm start`: the service on its embedded devnet, or on the chain `RPC_URL` names.
 */
import { NodeRuntime } from "@effect/platform-node"
import { ConfigProvider, Effect, Layer, Option } from "effect"
import { devnetPaymentSettings } from "../devnet/accounts.js"
import { Devnet } from "../devnet/Devnet.js"
import { AppConfig } from "../layers/AppConfig.js"
import { Deployment } from "../layers/Deployment.js"
import { appWith } from "./App.js"

/** On the embedded devnet its treasury takes the fees and settles them, unless the environment names others. */
const devnetPayments = Layer.setConfigProvider(
  ConfigProvider.fromEnv().pipe(
    ConfigProvider.orElse(() => ConfigProvider.fromMap(new Map(Object.entries(devnetPaymentSettings()))))
  )
)

const App = Layer.unwrapEffect(
  Effect.map(AppConfig, (config): Layer.Layer<never, unknown> =>
    Option.isSome(config.rpcUrl)
      ? appWith(Deployment.layerManifestFile)
      : appWith(Devnet.Default).pipe(Layer.provide(devnetPayments)))
).pipe(Layer.provide(AppConfig.Default))

Layer.launch(App).pipe(NodeRuntime.runMain)
