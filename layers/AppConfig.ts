/**
 * Every setting of the service, read once through Effect `Config`.
 * Defaults run the embedded devnet on a developer machine.
 */
import { Config, ConfigProvider, Effect, Layer, Option, Schema } from "effect"

export const ChainProfile = Schema.Literal("devnet", "arc")
export type ChainProfile = typeof ChainProfile.Type

export class AppConfig extends Effect.Service<AppConfig>()("AppConfig", {
  effect: Effect.gen(function*() {
    return {
      port: yield* Config.port("PORT").pipe(Config.withDefault(8402)),
      host: yield* Config.string("HOST").pipe(Config.withDefault("127.0.0.1")),
      /** When absent the service starts its own devnet and reads `manifestPath`. */
      rpcUrl: yield* Config.option(Config.string("RPC_URL")),
      profile: yield* Schema.Config("CHAIN_PROFILE", ChainProfile).pipe(Config.withDefault("devnet" as const)),
      chainId: yield* Config.integer("CHAIN_ID").pipe(Config.withDefault(5042)),
      manifestPath: yield* Config.string("MANIFEST_PATH").pipe(Config.withDefault(".devnet/manifest.json")),
      dataDir: yield* Config.string("DATA_DIR").pipe(Config.withDefault(".devnet/data")),
      /** Request bodies above this many bytes answer 413 `payload_too_large`. */
      maxBodyBytes: yield* Config.integer("MAX_BODY_BYTES").pipe(Config.withDefault(64 * 1024)),
      // Payment settings (PAY_TO, FACILITATOR_URL, …) live in layers/payment/PaymentConfig.ts, prices in src/payment/Prices.ts.
      /** Public base URL used in the OpenAPI servers list and the agent registration file. */
      publicUrl: yield* Config.option(Config.string("PUBLIC_URL")),
      version: "0.1.0"
    }
  })
}) {
  /**
   * Settings given by name (`{ DATA_DIR: "/tmp/x" }`) over the environment: for tests, benchmarks and
   * programs that embed the service without touching `process.env`.
   */
  static readonly withSettings = (settings: Readonly<Record<string, string>>) =>
    Layer.setConfigProvider(
      ConfigProvider.fromMap(new Map(Object.entries(settings))).pipe(
        ConfigProvider.orElse(() => ConfigProvider.fromEnv())
      )
    )

  static readonly baseUrl = (config: AppConfig) =>
    Option.getOrElse(config.publicUrl, () => `http://${config.host}:${config.port}`)
}
