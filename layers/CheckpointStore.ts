/**
 * The checkpoint store: one value kept in one file under `DATA_DIR`, so that a restart can resume
 * where the last run stopped. What the value means is its owner's business (the indexer's `Checkpoint`).
 *
 * The file is written to a temporary name and renamed over the previous one, so a crash leaves either
 * the old or the new checkpoint, never half of one. It is read and written whole (what it holds lives in
 * memory anyway), so a database buys nothing here: no random access is needed, Node 20 has no built-in
 * SQLite and `better-sqlite3`-style packages need install scripts. `node:v8` serialization is several
 * times faster than JSON and keeps bigints.
 */
import { FileSystem, Path } from "@effect/platform"
import { Effect, Option } from "effect"
import { deserialize, serialize } from "node:v8"
import { AppConfig } from "./AppConfig.js"

export class CheckpointStore extends Effect.Service<CheckpointStore>()("CheckpointStore", {
  effect: Effect.gen(function*() {
    const config = yield* AppConfig
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const file = path.join(config.dataDir, "index.checkpoint")

    /** The stored value, none when there is no file yet; fails when the file cannot be read or decoded. */
    const read = Effect.fn("CheckpointStore.read")(function*() {
      if (!(yield* fs.exists(file))) return Option.none<unknown>()
      const bytes = yield* fs.readFile(file)
      return Option.some<unknown>(yield* Effect.try(() => deserialize(bytes)))
    })

    const write = Effect.fn("CheckpointStore.write")(function*(value: unknown) {
      yield* fs.makeDirectory(config.dataDir, { recursive: true })
      const temporary = `${file}.${process.pid}.tmp`
      yield* fs.writeFile(temporary, serialize(value))
      yield* fs.rename(temporary, file)
    })

    return { file, read, write }
  })
}) {}
