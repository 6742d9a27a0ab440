/**
 * Serving a devnet from saved state: anvil loads the snapshot (blocks and logs included) and the code
 * at every contract role is checked against the hashes recorded when it was built, so a snapshot that
 * does not match what the manifest promises is never served.
 */
import { type Context, Effect, Option, type Scope } from "effect"
import { keccak256 } from "viem"
import { ChainRpc } from "../layers/ChainRpc.js"
import { RpcHex } from "../schema/Chain.js"
import type { Manifest } from "../schema/Manifest.js"
import { type AnvilInstance, startAnvil } from "./anvilProcess.js"
import type { DevnetOptions } from "./DevnetConfig.js"
import { DevnetError } from "./DevnetError.js"
import { withRpcUrl } from "./manifest.js"

export interface Served {
  readonly anvil: AnvilInstance
  readonly rpc: Context.Tag.Service<ChainRpc>
  readonly manifest: Manifest
}

/** A client for a fresh anvil. Its per-request log lines are drained but pointless: switched off. */
export const connect: (
  anvil: AnvilInstance,
  chainId: number
) => Effect.Effect<Context.Tag.Service<ChainRpc>> = Effect.fn("connect")(function*(anvil, chainId) {
  const rpc = ChainRpc.make({ rpcUrl: anvil.rpcUrl, chainId })
  yield* rpc.request("anvil_setLoggingEnabled", [false]).pipe(Effect.ignore)
  return rpc
})

export const serveState: (
  options: DevnetOptions,
  statePath: string,
  manifest: Manifest,
  codeHashes: Readonly<Record<string, string>>
) => Effect.Effect<Served, DevnetError, Scope.Scope> = Effect.fn("serveState")(function*(
  options,
  statePath,
  manifest,
  codeHashes
) {
  const anvil = yield* startAnvil({ ...options, loadState: Option.some(statePath), genesisTimestamp: Option.none() })
  const rpc = yield* connect(anvil, options.chainId)
  const codes = yield* Effect.forEach(
    Object.entries(manifest.contracts),
    ([role, address]) =>
      Effect.map(rpc.read(RpcHex, "eth_getCode", [address, "latest"]), (code) => [role, code] as const),
    { concurrency: "unbounded" }
  ).pipe(Effect.mapError((e) => new DevnetError({ message: `loaded devnet does not answer: ${e.message}` })))
  const wrong = codes.filter(([role, code]) => codeHashes[role] !== keccak256(code)).map(([role]) => role)
  if (wrong.length > 0) {
    return yield* new DevnetError({ message: `saved state has unexpected code at ${wrong.join(", ")}` })
  }
  return { anvil, rpc, manifest: withRpcUrl(manifest, anvil.rpcUrl) } satisfies Served
})
