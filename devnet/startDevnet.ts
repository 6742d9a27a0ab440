/**
 * Brings a devnet up inside the caller's scope: from a cached snapshot when one matches (well under a
 * second), otherwise by a cold bootstrap (which then fills the cache). Either way the manifest is
 * written for the anvil actually serving, and anvil stops when the scope closes.
 */
import { FileSystem, Path } from "@effect/platform"
import { type Context, Effect, ExecutionStrategy, Exit, Option, Scope } from "effect"
import type { ChainRpc } from "../layers/ChainRpc.js"
import type { Manifest } from "../schema/Manifest.js"
import { anvilBinary } from "./anvilBinary.js"
import type { AnvilInstance } from "./anvilProcess.js"
import { cacheKey, lookupCache, saveCache } from "./cache.js"
import { coldStart, dumpState } from "./coldStart.js"
import type { DevnetOptions } from "./DevnetConfig.js"
import { causeLine, DevnetError } from "./DevnetError.js"
import { writeManifest } from "./manifest.js"
import { elapsed, say } from "./progress.js"
import { type Served, serveState } from "./serveState.js"
import { writeVenueFile } from "./venues.js"

export interface DevnetHandle {
  readonly manifest: Manifest
  readonly manifestPath: string
  readonly rpc: Context.Tag.Service<ChainRpc>
  readonly anvil: AnvilInstance
  readonly source: "cache" | "bootstrap"
  /** Milliseconds: anvil start, bootstrap (cold only) and the whole start. */
  readonly timings: { readonly anvilMs: number; readonly bootstrapMs: number; readonly totalMs: number }
}

/** Runs `effect` in a child scope that is closed at once if it fails (no anvil left on the port). */
const inChildScope = <A, E, R>(effect: Effect.Effect<A, E, R | Scope.Scope>) =>
  Effect.flatMap(
    Scope.Scope,
    (parent) =>
      Effect.flatMap(Scope.fork(parent, ExecutionStrategy.sequential), (child) =>
        Scope.extend(effect, child).pipe(Effect.onError((cause) => Scope.close(child, Exit.failCause(cause)))))
  )

/** `<cacheDir>` and the key of the current bootstrap, when caching is on and the key computes. */
const cacheLocation = Effect.fn("cacheLocation")(function*(options: DevnetOptions) {
  if (Option.isNone(options.cacheDir)) return Option.none<readonly [string, string]>()
  const binary = yield* anvilBinary
  const key = yield* cacheKey({ anvilVersion: binary.version, chainId: options.chainId, hardfork: options.hardfork })
    .pipe(Effect.option) // no compiled contracts: no key, and the cold path reports the clearer error
  return Option.map(key, (k) => [options.cacheDir.pipe(Option.getOrThrow), k] as const)
})

export const startDevnet = Effect.fn("startDevnet")(function*(options: DevnetOptions) {
  const started = performance.now()
  const cache = yield* cacheLocation(options)

  const finish = (served: Served, source: DevnetHandle["source"], anvilMs: number, bootstrapMs: number) =>
    Effect.gen(function*() {
      yield* writeManifest(options.manifestPath, served.manifest)
      const venues = served.manifest.venues
      if (Option.isSome(options.venuesPath) && venues !== undefined) {
        yield* writeVenueFile(options.venuesPath.value, venues)
      }
      const totalMs = elapsed(started)
      yield* say(
        options.verbose,
        `ready (${source}) in ${totalMs} ms: ${served.anvil.rpcUrl}, manifest ${options.manifestPath}`
      )
      const handle: DevnetHandle = {
        ...served,
        manifestPath: options.manifestPath,
        source,
        timings: { anvilMs, bootstrapMs, totalMs }
      }
      return handle
    })

  // 1. A cached snapshot, if one matches; a broken one is skipped, not fatal.
  if (Option.isSome(cache)) {
    const [dir, key] = cache.value
    const entry = yield* lookupCache(dir, key, options.cacheTtlHours)
    if (Option.isSome(entry)) {
      const t = performance.now()
      const { statePath, manifest, codeHashes } = entry.value
      const served = yield* inChildScope(serveState(options, statePath, manifest, codeHashes)).pipe(Effect.either)
      if (served._tag === "Right") return yield* finish(served.right, "cache", elapsed(t), 0)
      yield* say(options.verbose, `cached state unusable (${served.left.message}); bootstrapping afresh`)
    } else {
      yield* say(options.verbose, `no cached state for ${key}; bootstrapping (the next start loads it)`)
    }
  }
  const save = (
    state: Uint8Array,
    built: { readonly manifest: Manifest; readonly codeHashes: Readonly<Record<string, string>> }
  ) =>
    Option.match(cache, {
      onNone: () => Effect.succeed(Option.none<string>()),
      onSome: ([dir, key]) =>
        saveCache(dir, key, { state, manifest: built.manifest, codeHashes: built.codeHashes }).pipe(
          Effect.as(Option.some(`${dir}/${key}/state.json`)),
          Effect.catchAll((e) =>
            Effect.as(say(options.verbose, `${e.message}: ${causeLine(e.cause)}`), Option.none<string>())
          )
        )
    })

  // 2. Cold bootstrap, served by the anvil that built it when automining.
  if (Option.isNone(options.blockTime)) {
    const built = yield* coldStart(options, options.port)
    if (Option.isSome(cache)) yield* save(yield* dumpState(built.rpc), built)
    return yield* finish(built, "bootstrap", built.anvilMs, built.bootstrapMs)
  }

  // 3. Cold bootstrap with a block interval: build on a private automining anvil, then serve its state
  //    with the interval (anvil takes sub-second intervals only on its command line).
  const built = yield* Effect.scoped(
    Effect.flatMap(
      coldStart(options, 0),
      (result) => Effect.map(dumpState(result.rpc), (state) => ({ ...result, state }))
    )
  )
  const saved = yield* save(built.state, built)
  const statePath = yield* Option.match(saved, {
    onSome: Effect.succeed,
    onNone: () => writeTemporaryState(built.state)
  })
  const t = performance.now()
  const served = yield* serveState(options, statePath, built.manifest, built.codeHashes)
  return yield* finish(served, "bootstrap", built.anvilMs + elapsed(t), built.bootstrapMs)
})

/** A state file that lives as long as the devnet's scope (caching off). */
const writeTemporaryState = (state: Uint8Array) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const file = path.join(yield* fs.makeTempDirectoryScoped({ prefix: "arc-devnet-" }), "state.json")
    yield* fs.writeFile(file, state)
    return file
  }).pipe(Effect.mapError((cause) => new DevnetError({ message: "cannot write the devnet state", cause })))
