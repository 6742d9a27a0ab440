/**
 * Brings a devnet up inside the caller's scope: from a cached snapshot when one matches (about a
 * second), otherwise by a cold bootstrap (which then fills the cache). Either way the manifest is
 * written for the anvil actually serving, and anvil stops when the scope closes.
 */
import { FileSystem, Path } from "@effect/platform"
import { type Context, Effect, ExecutionStrategy, Exit, Option, Scope } from "effect"
import { gunzipSync } from "node:zlib"
import { type Hex, keccak256 } from "viem"
import type { Manifest } from "../../schema/Manifest.js"
import { ChainRpc } from "../ChainRpc.js"
import { anvilBinary } from "./anvilBinary.js"
import { type AnvilInstance, startAnvil } from "./anvilProcess.js"
import { bootstrap } from "./bootstrap.js"
import { cacheKey, lookupCache, saveCache } from "./cache.js"
import type { DevnetOptions } from "./DevnetConfig.js"
import { causeLine, DevnetError } from "./DevnetError.js"
import { withRpcUrl, writeManifest } from "./manifest.js"
import { HISTORY_HOURS } from "./market/clock.js"

export interface DevnetHandle {
  readonly manifest: Manifest
  readonly manifestPath: string
  readonly rpc: Context.Tag.Service<ChainRpc>
  readonly anvil: AnvilInstance
  readonly source: "cache" | "bootstrap"
  /** Milliseconds: anvil start, bootstrap (cold only) and the whole start. */
  readonly timings: { readonly anvilMs: number; readonly bootstrapMs: number; readonly totalMs: number }
}

const elapsed = (since: number) => Math.round(performance.now() - since)

const say = (options: DevnetOptions, message: string) =>
  Effect.when(Effect.logInfo(`devnet: ${message}`), () => options.verbose)

/** Anvil's own per-request log lines are drained but pointless; switching them off saves CPU. */
const connect = Effect.fn("connect")(function*(anvil: AnvilInstance, chainId: number) {
  const rpc = ChainRpc.make({ rpcUrl: anvil.rpcUrl, chainId })
  yield* rpc.request("anvil_setLoggingEnabled", [false]).pipe(Effect.ignore)
  return rpc
})

/** Serves a saved state and proves it is the one expected: same code at every contract role. */
const serveState = Effect.fn("serveState")(function*(
  options: DevnetOptions,
  statePath: string,
  manifest: Manifest,
  codeHashes: Readonly<Record<string, string>>
) {
  const anvil = yield* startAnvil({ ...options, loadState: Option.some(statePath), genesisTimestamp: Option.none() })
  const rpc = yield* connect(anvil, options.chainId)
  const served = yield* Effect.forEach(
    Object.entries(manifest.contracts),
    ([role, address]) =>
      Effect.map(rpc.request<Hex>("eth_getCode", [address, "latest"]), (code) => [role, code] as const),
    { concurrency: "unbounded" }
  ).pipe(Effect.mapError((e) => new DevnetError({ message: `cached devnet does not answer: ${e.message}` })))
  const wrong = served.filter(([role, code]) => codeHashes[role] !== keccak256(code)).map(([role]) => role)
  if (wrong.length > 0) {
    return yield* new DevnetError({ message: `cached state has unexpected code at ${wrong.join(", ")}` })
  }
  return { anvil, rpc, manifest: withRpcUrl(manifest, anvil.rpcUrl) }
})

/** Runs `effect` in a child scope that is closed at once if it fails (no anvil left on the port). */
const inChildScope = <A, E, R>(effect: Effect.Effect<A, E, R | Scope.Scope>) =>
  Effect.flatMap(
    Scope.Scope,
    (parent) =>
      Effect.flatMap(Scope.fork(parent, ExecutionStrategy.sequential), (child) =>
        Scope.extend(effect, child).pipe(Effect.onError((cause) => Scope.close(child, Exit.failCause(cause)))))
  )

const cold = Effect.fn("coldBootstrap")(function*(options: DevnetOptions, port: number) {
  const end = Math.floor(Date.now() / 1000)
  const started = performance.now()
  const anvil = yield* startAnvil({
    ...options,
    port,
    // Bootstrap always automines; a block interval is applied when the state is served afterwards.
    blockTime: Option.none(),
    loadState: Option.none(),
    genesisTimestamp: Option.some(end - HISTORY_HOURS * 3600)
  })
  const anvilMs = elapsed(started)
  const rpc = yield* connect(anvil, options.chainId)
  yield* say(options, `anvil ${anvil.version} up on ${anvil.rpcUrl} in ${anvilMs} ms; bootstrapping`)
  const bootStarted = performance.now()
  const result = yield* bootstrap(rpc, end)
  const bootstrapMs = elapsed(bootStarted)
  yield* say(options, `bootstrap done in ${bootstrapMs} ms`)
  return { anvil, rpc, anvilMs, bootstrapMs, ...result }
})

const dump = (rpc: Context.Tag.Service<ChainRpc>) =>
  rpc.request<Hex>("anvil_dumpState", []).pipe(
    Effect.mapError((e) => new DevnetError({ message: `anvil_dumpState failed: ${e.message}` }))
  )

export const startDevnet = Effect.fn("startDevnet")(function*(options: DevnetOptions) {
  const started = performance.now()
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const binary = yield* anvilBinary
  const key = yield* Option.match(options.cacheDir, {
    onNone: () => Effect.succeed(Option.none<string>()),
    onSome: () =>
      cacheKey({ anvilVersion: binary.version, chainId: options.chainId, hardfork: options.hardfork }).pipe(
        Effect.map(Option.some),
        // Without compiled contracts there is no key, but the cold path will fail with the clearer error.
        Effect.orElseSucceed(() => Option.none<string>())
      )
  })
  const cacheAt = Option.all([options.cacheDir, key])

  const finish = (
    served: { readonly anvil: AnvilInstance; readonly rpc: Context.Tag.Service<ChainRpc>; readonly manifest: Manifest },
    source: DevnetHandle["source"],
    anvilMs: number,
    bootstrapMs: number
  ) =>
    Effect.gen(function*() {
      yield* writeManifest(options.manifestPath, served.manifest)
      const totalMs = elapsed(started)
      yield* say(
        options,
        `ready (${source}) in ${totalMs} ms: ${served.anvil.rpcUrl}, manifest ${options.manifestPath}`
      )
      return {
        ...served,
        manifestPath: options.manifestPath,
        source,
        timings: { anvilMs, bootstrapMs, totalMs }
      } satisfies DevnetHandle
    })

  // 1. A cached snapshot, if one matches.
  if (Option.isSome(cacheAt)) {
    const [dir, k] = cacheAt.value
    const entry = yield* lookupCache(dir, k, options.cacheTtlHours)
    if (Option.isSome(entry)) {
      const t = performance.now()
      const served = yield* inChildScope(
        serveState(options, entry.value.statePath, entry.value.manifest, entry.value.codeHashes)
      ).pipe(Effect.option)
      if (Option.isSome(served)) return yield* finish(served.value, "cache", elapsed(t), 0)
      yield* say(options, "cached state unusable; bootstrapping afresh")
    } else {
      yield* say(options, `no cached state for ${k}; bootstrapping (the next start loads it)`)
    }
  }

  // 2. Cold bootstrap, served directly when automining.
  if (Option.isNone(options.blockTime)) {
    const built = yield* cold(options, options.port)
    if (Option.isSome(cacheAt)) {
      const [dir, k] = cacheAt.value
      const snapshot = yield* dump(built.rpc)
      yield* saveCache(dir, k, { dump: snapshot, manifest: built.manifest, codeHashes: built.codeHashes }).pipe(
        Effect.catchAll((e) => say(options, `${e.message}: ${causeLine(e.cause)}`))
      )
    }
    return yield* finish(built, "bootstrap", built.anvilMs, built.bootstrapMs)
  }

  // 3. Cold bootstrap with a block interval: build on a private automining anvil, then serve its state
  //    with the interval (anvil only takes sub-second intervals on its command line).
  const built = yield* Effect.scoped(Effect.gen(function*() {
    const result = yield* cold(options, 0)
    return { ...result, snapshot: yield* dump(result.rpc) }
  }))
  const statePath = yield* Option.match(cacheAt, {
    onSome: ([dir, k]) =>
      Effect.as(
        saveCache(dir, k, { dump: built.snapshot, manifest: built.manifest, codeHashes: built.codeHashes }),
        path.join(dir, k, "state.json")
      ),
    onNone: () =>
      Effect.gen(function*() {
        const dir = yield* fs.makeTempDirectoryScoped({ prefix: "arc-devnet-" })
        const file = path.join(dir, "state.json")
        yield* fs.writeFile(file, gunzipSync(Buffer.from(built.snapshot.slice(2), "hex")))
        return file
      }).pipe(Effect.mapError((cause) => new DevnetError({ message: "cannot write the devnet state", cause })))
  })
  const t = performance.now()
  const served = yield* serveState(options, statePath, built.manifest, built.codeHashes)
  return yield* finish(served, "bootstrap", built.anvilMs + elapsed(t), built.bootstrapMs)
})
