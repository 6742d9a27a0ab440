/**
 * `npm start`: the service on its embedded devnet, or on the chain `RPC_URL` names.
 *
 * On the embedded devnet the service lives only as long as its anvil: if anvil dies, the chain and
 * every state on it are gone, so the service logs why and exits non-zero (a supervisor restarts it
 * with a fresh devnet) rather than serve a dead chain. An external `RPC_URL` may come back: there the
 * service stays up, `/health` answers 503 while it is away, and recovers by itself.
 *
 * A promise rejected with no handler is logged and served through, not a crash
 * (layers/UnhandledRejections.ts).
 */
import { NodeRuntime } from "@effect/platform-node"
import { Cause, Config, ConfigProvider, Context, Effect, Either, Layer, Logger, Option } from "effect"
import { devnetPaymentSettings } from "../devnet/accounts.js"
import { Devnet } from "../devnet/Devnet.js"
import { DevnetError } from "../devnet/DevnetError.js"
import { AppConfig } from "../layers/AppConfig.js"
import { Deployment } from "../layers/Deployment.js"
import { logUnhandledRejections } from "../layers/UnhandledRejections.js"

/**
 * The service's own modules, imported from the start while the embedded devnet bootstraps: loading them
 * is seconds of CPU, much of it off the main thread (tsx transforms in its loader thread), and the
 * bootstrap is seconds of waiting on anvil, so a cold start overlaps the two instead of adding them.
 */
const service = Promise.all([
  import("./App.js"),
  import("./execution/RouterCheck.js"),
  import("../layers/VenueChecks.js")
])

/** The service on `deployment`, its start-up checks (venue file, router) first. */
const serviceOn = <E, R>(deployment: Layer.Layer<Deployment, E, R>) =>
  Layer.unwrapEffect(
    Effect.map(
      Effect.promise(() => service),
      ([{ appWith }, { checkedRouter }, { checkedDeployment }]) => appWith(checkedRouter(checkedDeployment(deployment)))
    )
  )

/** On the embedded devnet its treasury takes the fees and settles them, unless the environment names others. */
const devnetPayments = Layer.setConfigProvider(
  ConfigProvider.fromEnv().pipe(
    ConfigProvider.orElse(() => ConfigProvider.fromMap(new Map(Object.entries(devnetPaymentSettings()))))
  )
)

const onEmbeddedDevnet = Effect.scoped(
  Effect.gen(function*() {
    const app = serviceOn(Devnet.layerDeployment)
    const devnet = yield* Layer.build(Layer.provideMerge(app, Devnet.layerConfig)).pipe(
      Effect.map((context) => Context.get(context, Devnet))
    )
    const code = yield* devnet.anvil.exited
    const message = `the embedded devnet's anvil (${devnet.anvil.rpcUrl}) exited (${code}): ` +
      "the chain is gone, so the service stops instead of serving it as live"
    return yield* new DevnetError({ message })
  })
).pipe(Effect.provide(devnetPayments))

/** The operator's files are read only with `RPC_URL`; the embedded devnet writes and serves its own. */
const unreadOnDevnet = (config: AppConfig) =>
  Effect.forEach(
    [["MANIFEST_PATH", config.manifestPath], ["VENUES_FILE", config.venuesFile]] as const,
    ([name, value]) =>
      Option.isSome(value)
        ? Effect.logWarning(
          `${name} ${value.value} is read only with RPC_URL: the embedded devnet serves its own files in ` +
            `${config.devnetDir} (DEVNET_DIR) and leaves ${value.value} untouched`
        )
        : Effect.void,
    { discard: true }
  )

const main = Effect.flatMap(
  AppConfig,
  (config): Effect.Effect<never, unknown> =>
    Option.isSome(config.rpcUrl)
      ? Layer.launch(serviceOn(Deployment.layerManifestFile))
      : Effect.zipRight(unreadOnDevnet(config), onEmbeddedDevnet)
).pipe(Effect.provide(AppConfig.Default))

/** Failures an operator fixes (a setting, the venue file, the chain): reported as one line each. */
const refusals: ReadonlySet<string> = new Set(["VenueFileRefused", "PaymentConfigError", "ConfigError", "ParseError"])

/**
 * A start refused for a reason the operator can fix is one error line naming it and the fix, not a
 * stack trace into the code that found it; anything else keeps its full cause.
 */
const reportRefusal = (cause: Cause.Cause<unknown>) => {
  if (Cause.isInterruptedOnly(cause)) return Effect.void
  const failure = Cause.failureOption(cause)
  if (Option.isNone(failure) || Cause.isDie(cause)) return Effect.logError("the service stopped", cause)
  const error = failure.value as { readonly _tag?: unknown; readonly message?: unknown }
  // The devnet's own failures (anvil did not start, or died) say what happened in their message.
  if (error instanceof DevnetError) return Effect.logError(error.message)
  return refusals.has(String(error._tag))
    ? Effect.logError(`refused to start: ${String(error.message ?? error)}`)
    : Effect.logError("the service stopped", cause)
}

/** `LOG_FORMAT`: `pretty` (default) or `json`, one JSON object a line for log shippers. */
const logFormat = Effect.runSync(Effect.either(
  Config.literal("pretty", "json")("LOG_FORMAT").pipe(Config.withDefault("pretty" as const))
))
const asJson = Either.isRight(logFormat) && logFormat.right === "json"

Effect.zipRight(Either.isLeft(logFormat) ? Effect.fail(logFormat.left) : Effect.void, main).pipe(
  Effect.tapErrorCause(reportRefusal),
  Effect.provide(logUnhandledRejections),
  Effect.provide(asJson ? Logger.json : Layer.empty),
  (program) => NodeRuntime.runMain(program, { disableErrorReporting: true, disablePrettyLogger: asJson })
)
