/**
 * A cold start: anvil with its genesis backdated by the history window, then the full bootstrap.
 * Always automining (fast); a block interval, if wanted, is applied when the state is served.
 */
import { type Context, Effect, Option, type Scope } from "effect"
import { gunzipSync } from "node:zlib"
import type { ChainRpc } from "../layers/ChainRpc.js"
import { RpcHex } from "../schema/Chain.js"
import { startAnvil } from "./anvilProcess.js"
import { bootstrap, type Bootstrapped } from "./bootstrap.js"
import type { DevnetOptions } from "./DevnetConfig.js"
import { DevnetError } from "./DevnetError.js"
import { HISTORY_HOURS } from "./market/clock.js"
import { elapsed, say } from "./progress.js"
import { connect, type Served } from "./serveState.js"

export interface ColdStarted extends Served, Bootstrapped {
  readonly anvilMs: number
  readonly bootstrapMs: number
}

export const coldStart: (
  options: DevnetOptions,
  port: number
) => Effect.Effect<ColdStarted, DevnetError, Scope.Scope> = Effect.fn("coldStart")(function*(options, port) {
  const end = Math.floor(Date.now() / 1000)
  const started = performance.now()
  const anvil = yield* startAnvil({
    ...options,
    port,
    blockTime: Option.none(),
    loadState: Option.none(),
    genesisTimestamp: Option.some(end - HISTORY_HOURS * 3600)
  })
  const anvilMs = elapsed(started)
  const rpc = yield* connect(anvil, options.chainId)
  yield* say(options.verbose, `anvil ${anvil.version} up on ${anvil.rpcUrl} in ${anvilMs} ms; bootstrapping`)
  const bootStarted = performance.now()
  const result = yield* bootstrap(rpc, end)
  const bootstrapMs = elapsed(bootStarted)
  yield* say(options.verbose, `bootstrap done in ${bootstrapMs} ms`)
  return { anvil, rpc, anvilMs, bootstrapMs, ...result }
})

/** The whole chain state (accounts, blocks, logs) as `--load-state` reads it. */
export const dumpState = (rpc: Context.Tag.Service<ChainRpc>) =>
  rpc.read(RpcHex, "anvil_dumpState", []).pipe(
    Effect.map((dump) => gunzipSync(Buffer.from(dump.slice(2), "hex"))),
    Effect.mapError((e) => new DevnetError({ message: `anvil_dumpState failed: ${e.message}` }))
  )
