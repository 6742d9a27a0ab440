/**
 * Settings of the embedded devnet: its own `DEVNET_*` settings read through `Config`, with its output
 * directory (`DEVNET_DIR`) and the chain id it shares with the service taken from `AppConfig`. Defaults work on a
 * developer machine. Tests and scripts may pass their own `DevnetOptions` instead of the environment.
 */
import { Config, Effect, Option } from "effect"
import { AppConfig } from "../layers/AppConfig.js"

export interface DevnetOptions {
  /** Host anvil binds to. */
  readonly host: string
  /** TCP port; 0 lets the OS pick a free one (what tests use). */
  readonly port: number
  /** Seconds between blocks (fractions allowed, e.g. 0.5 like Arc); none = automine. */
  readonly blockTime: Option.Option<number>
  /** Where the manifest is written. */
  readonly manifestPath: string
  /** Where the venue file is written besides (`DEVNET_DIR/venues.json`); none: only inside the manifest. */
  readonly venuesPath: Option.Option<string>
  /** Directory of bootstrap snapshots; none disables the cache. */
  readonly cacheDir: Option.Option<string>
  /** Older snapshots are rebuilt, so the seeded swap history stays within the last 24 h. */
  readonly cacheTtlHours: number
  readonly chainId: number
  /** EVM hardfork; Cancun or later, as Arc runs. */
  readonly hardfork: string
  /** Print progress lines (anvil up, bootstrap time, cache hit). */
  readonly verbose: boolean
  /**
   * How many past blocks' states anvil keeps in memory (`--prune-history N`); none: anvil's default,
   * 500 states, spilled to disk beyond. Anvil keeps a full copy of the state per block, so on a large
   * market that default is gigabytes (anvil 1.7.1 at 10,000 v2 pools: ~6 MB per block at 2,000 pools, ~30
   * MB at 10,000). A `blockTime` of 2 s or less raises anvil's limit to 1,500 states whatever this says:
   * pace blocks with `evm_mine` instead when both matter (scripts/bench/soak.ts).
   */
  readonly keptStates: Option.Option<number>
}

export const devnetDefaults: DevnetOptions = {
  host: "127.0.0.1",
  port: 8545,
  blockTime: Option.none(),
  manifestPath: ".devnet/manifest.json",
  venuesPath: Option.none(),
  cacheDir: Option.some(".cache/devnet"),
  cacheTtlHours: 12,
  chainId: 5042,
  hardfork: "prague",
  verbose: true,
  keptStates: Option.none()
}

const ownSettings = Config.all({
  host: Config.string("DEVNET_HOST").pipe(Config.withDefault(devnetDefaults.host)),
  port: Config.integer("DEVNET_PORT").pipe(Config.withDefault(devnetDefaults.port)),
  blockTime: Config.option(Config.number("DEVNET_BLOCK_TIME")),
  // DEVNET_CACHE=false forces a cold bootstrap every time (e.g. when editing the bootstrap itself).
  cacheDir: Config.all([
    Config.boolean("DEVNET_CACHE").pipe(Config.withDefault(true)),
    Config.string("DEVNET_CACHE_DIR").pipe(Config.withDefault(".cache/devnet"))
  ]).pipe(Config.map(([enabled, dir]) => (enabled ? Option.some(dir) : Option.none()))),
  cacheTtlHours: Config.number("DEVNET_CACHE_TTL_HOURS").pipe(Config.withDefault(devnetDefaults.cacheTtlHours)),
  hardfork: Config.string("DEVNET_HARDFORK").pipe(Config.withDefault(devnetDefaults.hardfork)),
  verbose: Config.boolean("DEVNET_VERBOSE").pipe(Config.withDefault(true)),
  keptStates: Config.option(Config.integer("DEVNET_KEPT_STATES"))
})

export const devnetConfig = Effect.gen(function*() {
  const config = yield* AppConfig
  const files = AppConfig.devnetFiles(config)
  const options: DevnetOptions = {
    ...(yield* ownSettings),
    chainId: config.chainId,
    manifestPath: files.manifest,
    venuesPath: Option.some(files.venues)
  }
  return options
})
