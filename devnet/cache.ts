/**
 * Bootstrap snapshots: after a cold bootstrap, anvil's state (with its blocks, so the swap history and
 * logs stay queryable) and the manifest are saved under `<cacheDir>/<key>/`; the next start loads them
 * with `--load-state` in about a second instead of replaying hundreds of transactions.
 *
 * The key digests everything the state depends on: the anvil version, chain settings, the compiled
 * contracts, the npm bytecode and this bootstrap's own source. Entries also expire (`ttlHours`) so that
 * the swap history stays inside the last 24 h that the service measures volume over.
 */
import { FileSystem, Path } from "@effect/platform"
import { Effect, Option, Schema } from "effect"
import { createHash } from "node:crypto"
import { fileURLToPath } from "node:url"
import { Manifest } from "../schema/Manifest.js"
import { DevnetError } from "./DevnetError.js"
import { npmArtifactFiles, resolveNpm } from "./npmArtifacts.js"

const here = fileURLToPath(new URL(".", import.meta.url))

const Meta = Schema.Struct({
  createdAt: Schema.Number,
  codeHashes: Schema.Record({ key: Schema.String, value: Schema.String })
})

export interface CacheEntry {
  readonly dir: string
  readonly statePath: string
  readonly manifest: Manifest
  readonly codeHashes: Readonly<Record<string, string>>
  readonly createdAt: number
}

export interface KeyInputs {
  readonly anvilVersion: string
  readonly chainId: number
  readonly hardfork: string
}

const SOURCE_SUFFIX = ".ts"

export const cacheKey = Effect.fn("cacheKey")(
  function*(inputs: KeyInputs) {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const root = path.resolve(here, "..")
    const hash = createHash("sha256").update(JSON.stringify(inputs))
    const add = (file: string) =>
      Effect.map(fs.readFile(file), (bytes) => {
        hash.update(`\0${path.relative(root, file)}\0`)
        hash.update(bytes)
      })
    const listed = (dir: string, suffix: string) =>
      Effect.map(
        fs.readDirectory(dir, { recursive: true }),
        (names) => names.filter((name) => name.endsWith(suffix)).sort().map((name) => path.join(dir, name))
      )

    const sources = [
      ...(yield* listed(here, SOURCE_SUFFIX)),
      path.join(root, "schema", "Manifest.ts")
    ]
    const artifacts = yield* listed(path.join(root, "build", "contracts"), ".json")
    const npm = Object.values(npmArtifactFiles).map(resolveNpm)
    yield* Effect.forEach([...sources, ...artifacts, ...npm], add, { discard: true })
    return hash.digest("hex").slice(0, 20)
  },
  (effect) =>
    Effect.mapError(effect, (cause) =>
      new DevnetError({
        message: "cannot compute the devnet cache key (build the contracts first: npm run build:contracts)",
        cause
      }))
)

export const lookupCache = Effect.fn("lookupCache")(function*(cacheDir: string, key: string, ttlHours: number) {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const dir = path.join(cacheDir, key)
  const statePath = path.join(dir, "state.json")
  if (!(yield* fs.exists(statePath))) return Option.none<CacheEntry>()
  const meta = yield* Schema.decodeUnknown(Schema.parseJson(Meta))(
    yield* fs.readFileString(path.join(dir, "meta.json"))
  )
  if (Date.now() - meta.createdAt > ttlHours * 3_600_000) return Option.none<CacheEntry>()
  const manifest = yield* Schema.decodeUnknown(Schema.parseJson(Manifest))(
    yield* fs.readFileString(path.join(dir, "manifest.json"))
  )
  return Option.some<CacheEntry>({ dir, statePath, manifest, codeHashes: meta.codeHashes, createdAt: meta.createdAt })
}, (effect) => Effect.orElseSucceed(effect, () => Option.none<CacheEntry>()))

export interface Snapshot {
  /** The state file `--load-state` reads (JSON from `anvil_dumpState`). */
  readonly state: Uint8Array
  readonly manifest: Manifest
  readonly codeHashes: Readonly<Record<string, string>>
}

/** Writes the entry beside its final place and renames it in, so concurrent starts never read half
 * an entry; stale entries of other keys are removed. */
export const saveCache = Effect.fn("saveCache")(
  function*(cacheDir: string, key: string, snapshot: Snapshot) {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    yield* fs.makeDirectory(cacheDir, { recursive: true })
    const staging = path.join(cacheDir, `.${key}.${process.pid}.${Date.now()}`)
    yield* fs.makeDirectory(staging, { recursive: true })
    yield* fs.writeFile(path.join(staging, "state.json"), snapshot.state)
    const manifest = yield* Schema.encode(Manifest)(snapshot.manifest)
    yield* fs.writeFileString(path.join(staging, "manifest.json"), JSON.stringify(manifest, null, 2))
    yield* fs.writeFileString(
      path.join(staging, "meta.json"),
      JSON.stringify({ createdAt: Date.now(), codeHashes: snapshot.codeHashes }, null, 2)
    )
    const target = path.join(cacheDir, key)
    yield* fs.remove(target, { recursive: true }).pipe(Effect.ignore)
    yield* fs.rename(staging, target).pipe(
      Effect.catchAll(() => fs.remove(staging, { recursive: true }))
    )
    const others = yield* fs.readDirectory(cacheDir)
    yield* Effect.forEach(
      others.filter((name) => name !== key && !name.startsWith(".")),
      (name) => fs.remove(path.join(cacheDir, name), { recursive: true }).pipe(Effect.ignore),
      { discard: true }
    )
  },
  (effect, cacheDir) =>
    Effect.mapError(
      effect,
      (cause) => new DevnetError({ message: `cannot save the devnet cache in ${cacheDir}`, cause })
    )
)
