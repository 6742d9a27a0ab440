/**
 * `npm start`: the service on its embedded devnet, or on the chain `RPC_URL` names.
 *
 * On the embedded devnet the service lives only as long as its anvil: if anvil dies, the chain and
 * every state on it are gone, so the service logs why and exits non-zero (a supervisor restarts it
 * with a fresh devnet) rather than serve a dead chain. An external `RPC_URL` may come back: there the
 * service stays up, `/health` answers 503 while it is away, and recovers by itself.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Config, Context, Effect, Layer, Option } from "effect"
import { Deployment } from "../layers/Deployment.js"
import { Devnet } from "../layers/Devnet.js"
import { DevnetError } from "../layers/devnet/DevnetError.js"
import { appWith } from "./App.js"

const onEmbeddedDevnet = Effect.scoped(
  Effect.gen(function*() {
    const devnet = yield* Layer.build(Layer.provideMerge(appWith(Devnet.deployment), Devnet.layer)).pipe(
      Effect.map((context) => Context.get(context, Devnet))
    )
    const code = yield* devnet.anvil.exited
    const message = `the embedded devnet's anvil (${devnet.anvil.rpcUrl}) exited (${code}): ` +
      "the chain is gone, so the service stops instead of serving it as live"
    yield* Effect.logError(message)
    return yield* new DevnetError({ message })
  })
)

const main = Effect.flatMap(
  Config.option(Config.string("RPC_URL")),
  (rpcUrl): Effect.Effect<never, unknown> =>
    Option.isSome(rpcUrl) ? Layer.launch(appWith(Deployment.layerManifestFile)) : onEmbeddedDevnet
)

main.pipe(NodeRuntime.runMain)
