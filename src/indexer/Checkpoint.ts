/**
 * The persisted index: the whole `IndexState` at one block, so that a restart resumes from there
 * instead of re-reading the chain from the start block.
 *
 * Store: one file under `DATA_DIR`, written to a temporary name and renamed over the previous one, so a
 * crash leaves either the old or the new checkpoint, never half of one. The state is read and written
 * whole (the index lives in memory anyway), so a database buys nothing here: no random access is
 * needed, and Node 20 has no built-in SQLite while `better-sqlite3`-style packages need install
 * scripts. `node:v8` serialization is several times faster than JSON and keeps bigints.
 *
 * A checkpoint carries a fingerprint of the deployment (chain, start block, contracts) and the hash of
 * its block; the indexer uses it only if the chain still has that block with that hash.
 */
import { FileSystem, Path } from "@effect/platform"
import { Effect, Option } from "effect"
import { createHash } from "node:crypto"
import { deserialize, serialize } from "node:v8"
import { AppConfig } from "../../layers/AppConfig.js"
import type { DeploymentShape } from "../../layers/Deployment.js"
import { CODEC_VERSION, fromStored, type StoredState, toStored } from "./Codec.js"
import type { IndexState } from "./State.js"

export const fingerprintOf = (deployment: Pick<DeploymentShape, "chainId" | "startBlock" | "contracts">): string =>
  createHash("sha256").update(JSON.stringify({
    version: CODEC_VERSION,
    chainId: deployment.chainId,
    startBlock: deployment.startBlock,
    contracts: Object.entries(deployment.contracts).map(([role, address]) => [role, address.toLowerCase()]).sort()
  })).digest("hex")

export class Checkpoint extends Effect.Service<Checkpoint>()("Checkpoint", {
  effect: Effect.gen(function*() {
    const config = yield* AppConfig
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const file = path.join(config.dataDir, "index.checkpoint")

    /** The stored state when it exists, decodes and was written for `fingerprint`; never fails. */
    const load = Effect.fn("Checkpoint.load")(function*(fingerprint: string) {
      if (!(yield* fs.exists(file))) return Option.none<IndexState>()
      const bytes = yield* fs.readFile(file)
      const stored = deserialize(bytes) as StoredState
      if (stored.version !== CODEC_VERSION || stored.fingerprint !== fingerprint) {
        yield* Effect.logInfo("checkpoint belongs to another deployment or format; ignoring it")
        return Option.none<IndexState>()
      }
      return Option.some(fromStored(stored))
    }, (effect) =>
      effect.pipe(
        Effect.catchAllCause((cause) =>
          Effect.logWarning("checkpoint unreadable; indexing from the start block", cause).pipe(
            Effect.as(Option.none<IndexState>())
          )
        )
      ))

    const save = Effect.fn("Checkpoint.save")(function*(state: IndexState, fingerprint: string) {
      yield* fs.makeDirectory(config.dataDir, { recursive: true })
      const temporary = `${file}.${process.pid}.tmp`
      yield* fs.writeFile(temporary, serialize(toStored(state, fingerprint)))
      yield* fs.rename(temporary, file)
    })

    return { file, load, save }
  })
}) {}
