/**
 * Settings of the embedded devnet, read through `Config` with defaults that work on a developer
 * machine. Tests and scripts may pass their own `DevnetOptions` instead of the environment.
 */
import { Config, Option } from "effect"

export interface DevnetOptions {
  /** Host anvil binds to. */
  readonly host: string
  /** TCP port; 0 lets the OS pick a free one (what tests use). */
  readonly port: number
  /** Seconds between blocks (fractions allowed, e.g. 0.5 like Arc); none = automine. */
  readonly blockTime: Option.Option<number>
  /** Where the manifest is written. */
  readonly manifestPath: string
  /** Directory of bootstrap snapshots; none disables the cache. */
  readonly cacheDir: Option.Option<string>
  /** Older snapshots are rebuilt, so the seeded swap history stays within the last 24 h. */
  readonly cacheTtlHours: number
  readonly chainId: number
  /** EVM hardfork; Cancun or later, as Arc runs. */
  readonly hardfork: string
  /** Print progress lines (anvil up, bootstrap time, cache hit). */
  readonly verbose: boolean
}

export const devnetDefaults: DevnetOptions = {
  host: "127.0.0.1",
  port: 8545,
  blockTime: Option.none(),
  manifestPath: ".devnet/manifest.json",
  cacheDir: Option.some(".cache/devnet"),
  cacheTtlHours: 12,
  chainId: 5042,
  hardfork: "prague",
  verbose: true
}

export const devnetConfig: Config.Config<DevnetOptions> = Config.all({
  host: Config.string("DEVNET_HOST").pipe(Config.withDefault(devnetDefaults.host)),
  port: Config.integer("DEVNET_PORT").pipe(Config.withDefault(devnetDefaults.port)),
  blockTime: Config.option(Config.number("DEVNET_BLOCK_TIME")),
  manifestPath: Config.string("MANIFEST_PATH").pipe(Config.withDefault(devnetDefaults.manifestPath)),
  // DEVNET_CACHE=false forces a cold bootstrap every time (e.g. when editing the bootstrap itself).
  cacheDir: Config.all([
    Config.boolean("DEVNET_CACHE").pipe(Config.withDefault(true)),
    Config.string("DEVNET_CACHE_DIR").pipe(Config.withDefault(".cache/devnet"))
  ]).pipe(Config.map(([enabled, dir]) => (enabled ? Option.some(dir) : Option.none()))),
  cacheTtlHours: Config.number("DEVNET_CACHE_TTL_HOURS").pipe(Config.withDefault(devnetDefaults.cacheTtlHours)),
  chainId: Config.integer("CHAIN_ID").pipe(Config.withDefault(devnetDefaults.chainId)),
  hardfork: Config.string("DEVNET_HARDFORK").pipe(Config.withDefault(devnetDefaults.hardfork)),
  verbose: Config.boolean("DEVNET_VERBOSE").pipe(Config.withDefault(true))
})
