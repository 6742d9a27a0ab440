/**
 * The persisted index: the whole `IndexState` at one block, so that a restart resumes from there
 * instead of re-reading the chain from the start block. Kept in the `CheckpointStore` boundary.
 *
 * A checkpoint carries a fingerprint of the deployment (chain, start block, contracts, venue file: a
 * venue added to the file has pools the stored state never followed) and the hash of its block; the indexer uses it only if the chain still has that block with that hash.
 */
import { Effect, Option } from "effect"
import { createHash } from "node:crypto"
import { CheckpointStore } from "../../layers/CheckpointStore.js"
import type { DeploymentShape } from "../../layers/Deployment.js"
import { CODEC_VERSION, fromParts, type StoredHeader, storedParts, type StoredSlice } from "./Codec.js"
import type { IndexState } from "./State.js"

export const fingerprintOf = (
  deployment: Pick<DeploymentShape, "chainId" | "startBlock" | "contracts" | "venues">
): string =>
  createHash("sha256").update(JSON.stringify({
    version: CODEC_VERSION,
    chainId: deployment.chainId,
    startBlock: deployment.startBlock,
    contracts: Object.entries(deployment.contracts).map(([role, address]) => [role, address.toLowerCase()]).sort(),
    venues: deployment.venues
  })).digest("hex")

export class Checkpoint extends Effect.Service<Checkpoint>()("Checkpoint", {
  effect: Effect.gen(function*() {
    const store = yield* CheckpointStore

    /** The stored state when it exists, decodes and was written for `fingerprint`; never fails. */
    const load = Effect.fn("Checkpoint.load")(function*(fingerprint: string) {
      const stored = yield* store.read()
      if (Option.isNone(stored)) return Option.none<IndexState>()
      // An older format's whole state reads as one part: its version is not this one.
      const [header, ...slices] = stored.value as ReadonlyArray<StoredHeader | StoredSlice>
      if (
        header === undefined || !("version" in header) || header.version !== CODEC_VERSION ||
        header.fingerprint !== fingerprint
      ) {
        yield* Effect.logInfo("checkpoint belongs to another deployment or format; ignoring it")
        return Option.none<IndexState>()
      }
      return Option.some(fromParts(header, slices as ReadonlyArray<StoredSlice>))
    }, (effect) =>
      effect.pipe(
        Effect.catchAllCause((cause) =>
          Effect.logWarning("checkpoint unreadable; indexing from the start block", cause).pipe(
            Effect.as(Option.none<IndexState>())
          )
        )
      ))

    /** Writes `state` a slice at a time (./Codec.ts): answers go on between slices. */
    const save = Effect.fn("Checkpoint.save")(function*(state: IndexState, fingerprint: string) {
      yield* store.write(storedParts(state, fingerprint))
    })

    return { load, save }
  }),
  dependencies: [CheckpointStore.Default]
}) {}
