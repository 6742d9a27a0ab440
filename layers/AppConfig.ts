/**
 * Every setting of the service, read once through Effect `Config`: services take their settings from
 * here and never read the environment themselves. Defaults run the embedded devnet on a developer
 * machine. The devnet tooling adds its own `DEVNET_*` settings (devnet/DevnetConfig.ts).
 */
import { Config, ConfigProvider, Effect, Layer, Option, Schema } from "effect"
import { Address } from "../schema/Primitives.js"
import { priceTableConfig } from "./payment/Prices.js"

export const ChainProfile = Schema.Literal("devnet", "arc")
export type ChainProfile = typeof ChainProfile.Type

const indexerConfig = Config.all({
  /** Blocks per `eth_getLogs` while catching up, shrunk on refusals. */
  batchBlocks: Config.integer("INDEXER_BATCH_BLOCKS").pipe(Config.withDefault(2_000)),
  /** Blocks checked by parent hash and kept for rollback. */
  reorgWindow: Config.integer("INDEXER_REORG_WINDOW").pipe(Config.withDefault(64)),
  /** Head poll interval; by default half the block time this process observes (src/indexer/Pace.ts). */
  pollMillis: Config.option(Config.integer("INDEXER_POLL_MS")),
  /**
   * Ranges fetched ahead while one is applied. One: at 20,000 pools two held RSS at 1.6-1.9× a checkpoint
   * start for no time gained on two cores (docs/performance.md, branch catchup2).
   */
  prefetch: Config.integer("INDEXER_PREFETCH").pipe(Config.withDefault(1)),
  checkpointSec: Config.integer("CHECKPOINT_INTERVAL_SEC").pipe(Config.withDefault(30)),
  /** Seconds the index may lag the chain's head before answers are refused (src/indexer/Freshness.ts). */
  maxAgeSec: Config.number("INDEX_MAX_AGE_SEC").pipe(Config.withDefault(5)),
  /**
   * How long an operation waits for the index to apply the head it learned on arrival before it answers
   * 503 `rpc_unavailable` (never an older block served as current).
   */
  headWaitMillis: Config.integer("HEAD_WAIT_MS").pipe(Config.withDefault(3_000)),
  /** `/health` turns `degraded` when the index trails the head by more blocks than this… */
  maxLagBlocks: Config.integer("HEALTH_MAX_LAG_BLOCKS").pipe(Config.withDefault(10)),
  /** …or has trailed it for longer than this. */
  maxLagMillis: Config.integer("HEALTH_MAX_LAG_MS").pipe(Config.withDefault(1_000))
})

/** The Node server's timeouts (src/http/Protocol.ts): a slow or silent client is answered and closed. */
const httpConfig = Config.all({
  headersMs: Config.integer("HTTP_HEADERS_TIMEOUT_MS").pipe(Config.withDefault(10_000)),
  requestMs: Config.integer("HTTP_REQUEST_TIMEOUT_MS").pipe(Config.withDefault(15_000)),
  keepAliveMs: Config.integer("HTTP_KEEP_ALIVE_TIMEOUT_MS").pipe(Config.withDefault(5_000))
})

/** The raw x402 settings; the payment gate checks them (layers/payment/PaymentConfig.ts). */
const paymentConfig = Config.all({
  facilitatorUrl: Config.option(Config.string("FACILITATOR_URL")),
  facilitatorTimeoutMs: Config.integer("FACILITATOR_TIMEOUT_MS").pipe(Config.withDefault(30_000)),
  settlementKey: Config.option(Config.redacted("SETTLEMENT_PRIVATE_KEY")),
  payTo: Config.option(Config.string("PAY_TO")),
  eip712Name: Config.string("USDC_EIP712_NAME").pipe(Config.withDefault("USDC")),
  eip712Version: Config.string("USDC_EIP712_VERSION").pipe(Config.withDefault("2")),
  ceiling: Schema.Config("PAYMENT_CEILING", Schema.BigInt).pipe(Config.withDefault(5_000_000n)),
  defaultTimeoutSec: Config.integer("PAYMENT_TIMEOUT_SEC").pipe(Config.withDefault(300)),
  minValiditySec: Config.integer("PAYMENT_MIN_VALIDITY_SEC").pipe(Config.withDefault(30)),
  receiptPollMs: Config.integer("SETTLEMENT_RECEIPT_POLL_MS").pipe(Config.withDefault(100)),
  receiptTimeoutMs: Config.integer("SETTLEMENT_RECEIPT_TIMEOUT_MS").pipe(Config.withDefault(20_000)),
  /** When a paid answer leaves; by default by chain profile (docs/payments.md#settlement-modes). */
  settlementMode: Config.option(Config.literal("confirmed", "broadcast")("SETTLEMENT_MODE")),
  unconfirmedCap: Schema.Config("SETTLEMENT_UNCONFIRMED_CAP", Schema.BigInt).pipe(Config.withDefault(5_000_000n)),
  payerCap: Schema.Config("SETTLEMENT_PAYER_CAP", Schema.BigInt).pipe(Config.withDefault(1_000_000n)),
  debtRefusalSec: Config.integer("SETTLEMENT_DEBT_REFUSAL_SEC").pipe(Config.withDefault(86_400)),
  replaceAfterMs: Config.integer("SETTLEMENT_REPLACE_AFTER_MS").pipe(Config.withDefault(3_000)),
  giveUpAfterMs: Config.integer("SETTLEMENT_GIVE_UP_AFTER_MS").pipe(Config.withDefault(60_000))
})

/** The safety verdict's thresholds and trusted assets (docs/safety.md). */
const safetyConfig = Config.all({
  /** Assets reported `pinned` without simulation, besides USDC (always pinned): lower-case addresses. */
  pinnedAssets: Config.array(Config.string(), "PINNED_ASSETS").pipe(
    Config.withDefault([]),
    Config.map((assets) => assets.map((asset) => asset.trim().toLowerCase()).filter((asset) => asset !== ""))
  ),
  /** `illiquid` when a buy of max(order, reference) moves the route's price more than this. */
  illiquidImpactBps: Config.integer("SAFETY_ILLIQUID_IMPACT_BPS").pipe(Config.withDefault(1_000)),
  /** Reference buy size in USDC base units for the depth rule (default $100). */
  illiquidReferenceUsdc: Config.integer("SAFETY_ILLIQUID_REFERENCE_USDC").pipe(
    Config.withDefault(100_000_000),
    Config.map(BigInt)
  ),
  /** A buy or sell tax at or above this is confiscatory: `cannot_sell`. */
  confiscatoryTaxBps: Config.integer("SAFETY_CONFISCATORY_TAX_BPS").pipe(Config.withDefault(5_000)),
  /** Also sell back after waiting (the next block of the other parity, 30 blocks, an hour, a day). */
  horizons: Config.boolean("SAFETY_HORIZONS").pipe(Config.withDefault(true)),
  /** Per-transaction caps are looked for up to this multiple of the checked size. */
  capProbeMultiple: Config.integer("SAFETY_CAP_PROBE_MULTIPLE").pipe(Config.withDefault(10)),
  /** Verdicts kept in memory (per token, route, size and block). */
  cacheCapacity: Config.integer("SAFETY_CACHE_CAPACITY").pipe(Config.withDefault(10_000))
})

/** The background safety scan that gives `search` results their verdicts (docs/safety.md). */
const safetyScanConfig = Config.all({
  /** Off for a quiet chain (benchmarks that time simulations); search then shows only quotes' verdicts. */
  enabled: Config.boolean("SAFETY_SCAN").pipe(Config.withDefault(true)),
  /** Tokens simulated at once: each is a few `eth_simulateV1` calls, and quotes share the node. */
  concurrency: Config.integer("SAFETY_SCAN_CONCURRENCY").pipe(Config.withDefault(2)),
  /** Size of the scan's probe buy in USDC base units (default $100). */
  probeUsdc: Config.integer("SAFETY_SCAN_PROBE_USDC").pipe(Config.withDefault(100_000_000), Config.map(BigInt)),
  /** Routes measured per token: the best USDC path through each of its pools, best first. */
  routesPerToken: Config.integer("SAFETY_SCAN_ROUTES").pipe(Config.withDefault(3)),
  /** Tokens waiting to be measured (a chain's worth); past this the least urgent waiting are dropped. */
  queueCapacity: Config.integer("SAFETY_SCAN_QUEUE").pipe(Config.withDefault(65_536)),
  /** At most one look at the index's changes per interval, however fast blocks come. */
  intervalMillis: Config.integer("SAFETY_SCAN_INTERVAL_MS").pipe(Config.withDefault(250))
})

export class AppConfig extends Effect.Service<AppConfig>()("AppConfig", {
  effect: Effect.gen(function*() {
    return {
      port: yield* Config.port("PORT").pipe(Config.withDefault(8402)),
      host: yield* Config.string("HOST").pipe(Config.withDefault("127.0.0.1")),
      /** When absent the service starts its own devnet and reads `manifestPath`. */
      rpcUrl: yield* Config.option(Config.string("RPC_URL")),
      /**
       * A websocket endpoint of the same node, for pushed heads (polling stays the safety net). By default
       * the RPC URL's own (`ws://` for `http://`), as nodes that serve both on one port do; `off` polls only.
       */
      wsUrl: yield* Config.option(Config.string("WS_URL")),
      profile: yield* Schema.Config("CHAIN_PROFILE", ChainProfile).pipe(Config.withDefault("devnet" as const)),
      chainId: yield* Config.integer("CHAIN_ID").pipe(Config.withDefault(5042)),
      /**
       * The operator's manifest, read only with `RPC_URL` (and required there). The devnet never writes
       * here: its own goes to `devnetDir`, so a file the operator named is never overwritten.
       */
      manifestPath: yield* Config.option(Config.string("MANIFEST_PATH")),
      /**
       * The operator's venue file (schema/VenueFile.ts): the chain's Permit2 and every DEX venue, read only
       * with `RPC_URL`; unset, the manifest's own `venues`.
       */
      venuesFile: yield* Config.option(Config.string("VENUES_FILE")),
      /** Where the embedded devnet writes its manifest and venue file (`manifest.json`, `venues.json`). */
      devnetDir: yield* Config.string("DEVNET_DIR").pipe(Config.withDefault(".devnet")),
      /** The `router` contract, over the manifest's (no router anywhere makes every plan non-executable). */
      routerAddress: yield* Config.option(Schema.Config("ROUTER_ADDRESS", Address)),
      dataDir: yield* Config.string("DATA_DIR").pipe(Config.withDefault(".devnet/data")),
      /** Venue ids the operator switched off without a redeploy. */
      disabledVenues: yield* Config.array(Config.string(), "DISABLED_VENUES").pipe(Config.withDefault([])),
      /** How long an expired quote is still known (as expired, for 410 `quote_expired`) before it is dropped. */
      quoteRetainSec: yield* Config.integer("QUOTE_RETAIN_SEC").pipe(Config.withDefault(3_600)),
      /**
       * Where replicas share state: quotes and their lifecycle (layers/RedisQuoteStore.ts) and the payment
       * ledger. Unset, both live in this process (one replica). Keys start with `REDIS_PREFIX`.
       */
      redis: {
        url: yield* Config.option(Config.string("REDIS_URL")),
        prefix: yield* Config.string("REDIS_PREFIX").pipe(Config.withDefault("checkpoint:"))
      },
      /** After SIGTERM, how long `/health` fails while requests are still served, so the balancer drains the replica. */
      drainMillis: yield* Config.integer("DRAIN_MS").pipe(Config.withDefault(2_000)),
      indexer: yield* indexerConfig,
      /** Request bodies above this many bytes answer 413 `payload_too_large`. */
      maxBodyBytes: yield* Config.integer("MAX_BODY_BYTES").pipe(Config.withDefault(64 * 1024)),
      http: yield* httpConfig,
      /** x402: facilitator, fee recipient, ceiling and timeouts (checked by the payment gate); its ledger is in `redis`. */
      payment: yield* paymentConfig,
      /** x402 prices in USDC base units; `swap` is tiered by order size. */
      prices: yield* priceTableConfig,
      /** Public base URL used in the OpenAPI servers list and the agent registration file. */
      publicUrl: yield* Config.option(Config.string("PUBLIC_URL")),
      /**
       * Browser origins the MCP endpoint serves (`https://app.example`, `http://localhost:*` for any port);
       * by default the service's own origin and loopback on any port (src/mcp/Origins.ts).
       */
      mcpAllowedOrigins: yield* Config.option(Config.array(Config.string(), "MCP_ALLOWED_ORIGINS")),
      /** Where the verification token list can be read (answers' `sourceUrl`); by default the manifest file. */
      tokenListUrl: yield* Config.option(Config.string("TOKEN_LIST_URL")),
      safety: yield* safetyConfig,
      safetyScan: yield* safetyScanConfig
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

  /** The devnet's own files, never the operator's. */
  static readonly devnetFiles = (config: AppConfig) => ({
    manifest: `${config.devnetDir}/manifest.json`,
    venues: `${config.devnetDir}/venues.json`
  })

  /** The manifest served: the operator's with `RPC_URL`, else the embedded devnet's. */
  static readonly servedManifest = (config: AppConfig) =>
    Option.isSome(config.rpcUrl) && Option.isSome(config.manifestPath)
      ? config.manifestPath.value
      : AppConfig.devnetFiles(config).manifest

  static readonly tokenListUrl = (config: AppConfig) =>
    Option.getOrElse(config.tokenListUrl, () => `file:${AppConfig.servedManifest(config)}`)
}
