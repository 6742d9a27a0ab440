/**
 * The checkpoint store: a sequence of values kept in one file under `DATA_DIR`, so that a restart can
 * resume where the last run stopped. What the values mean is their owner's business (the indexer's
 * `Checkpoint`).
 *
 * Each value is serialized and written on its own, as its owner's iterable makes it: between two values
 * the writer waits on the file, and the event loop serves whatever else is waiting. A service with a large
 * index is then never paused for the whole checkpoint at once, only for one value of it.
 *
 * The file is written to a temporary name and renamed over the previous one, so a crash leaves either
 * the old or the new checkpoint, never half of one. It is read whole at start (what it holds lives in
 * memory anyway), so a database buys nothing here: no random access is needed, Node 20 has no built-in
 * SQLite and `better-sqlite3`-style packages need install scripts. `node:v8` serialization is several
 * times faster than JSON and keeps bigints.
 *
 * The file: a magic prefix, then each value as a 4-byte big-endian length and its `node:v8` bytes. A file
 * without the prefix is the older format, one `node:v8` value; it is read as a sequence of that one value.
 */
import { FileSystem, Path } from "@effect/platform"
import { Effect, Option } from "effect"
import { deserialize, serialize } from "node:v8"
import { AppConfig } from "./AppConfig.js"

const MAGIC = Buffer.from("checkpoint-frames-1\n")

const framesOf = (bytes: Uint8Array): ReadonlyArray<unknown> => {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (buffer.length < MAGIC.length || !buffer.subarray(0, MAGIC.length).equals(MAGIC)) return [deserialize(buffer)]
  const values: Array<unknown> = []
  let at = MAGIC.length
  while (at < buffer.length) {
    if (at + 4 > buffer.length) throw new Error("checkpoint ends inside a frame's length")
    const length = buffer.readUInt32BE(at)
    at += 4
    if (at + length > buffer.length) throw new Error("checkpoint ends inside a frame")
    values.push(deserialize(buffer.subarray(at, at + length)))
    at += length
  }
  return values
}

const frame = (value: unknown) => {
  const bytes = serialize(value)
  const length = Buffer.alloc(4)
  length.writeUInt32BE(bytes.length)
  return Buffer.concat([length, bytes])
}

export class CheckpointStore extends Effect.Service<CheckpointStore>()("CheckpointStore", {
  effect: Effect.gen(function*() {
    const config = yield* AppConfig
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const file = path.join(config.dataDir, "index.checkpoint")
    const temporary = `${file}.${process.pid}.tmp`
    // One write at a time: a write spans many turns of the loop, and two at once (the periodic one and
    // the one at shutdown) would interleave their frames in the one temporary file.
    const writing = yield* Effect.makeSemaphore(1)

    /** The stored values in order, none when there is no file yet; fails when the file cannot be read or decoded. */
    const read = Effect.fn("CheckpointStore.read")(function*() {
      if (!(yield* fs.exists(file))) return Option.none<ReadonlyArray<unknown>>()
      const bytes = yield* fs.readFile(file)
      return Option.some(yield* Effect.try(() => framesOf(bytes)))
    })

    /** Writes `values` in order, each made, serialized and written before the next is asked for. */
    const write = Effect.fn("CheckpointStore.write")(function*(values: Iterable<unknown>) {
      yield* fs.makeDirectory(config.dataDir, { recursive: true })
      yield* Effect.scoped(Effect.gen(function*() {
        const handle = yield* fs.open(temporary, { flag: "w" })
        yield* handle.writeAll(MAGIC)
        for (const value of values) yield* handle.writeAll(frame(value))
      }))
      yield* fs.rename(temporary, file)
    }, (effect) => writing.withPermits(1)(effect))

    return { file, read, write }
  })
}) {}
