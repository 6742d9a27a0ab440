/**
 * The indexer as a scoped service: building it restores the checkpoint (when the chain still has its
 * block), publishes that state, and forks the indexing stream and the periodic checkpoint writer into
 * the layer's scope. Closing the scope writes a last checkpoint and stops both.
 * Its settings are `AppConfig.indexer` (`INDEX_MAX_AGE_SEC` among them: how old the index may be before
 * answers are refused, see ./Freshness.ts).
 */
import { Effect, Option, Ref, Schedule } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { Deployment } from "../../layers/Deployment.js"
import { Venues } from "../../layers/Venues.js"
import { ChainHead } from "./ChainHead.js"
import { ChainIndex } from "./ChainIndex.js"
import { header, makeBatchSizer } from "./ChainSource.js"
import { Checkpoint, fingerprintOf } from "./Checkpoint.js"
import { runPipeline } from "./Pipeline.js"
import { makeProgress } from "./Progress.js"
import { sourcesFrom } from "./Sources.js"
import { emptyState } from "./State.js"
import type { Engine, IndexerSettings, Tip } from "./Steps.js"

export class Indexer extends Effect.Service<Indexer>()("Indexer", {
  scoped: Effect.gen(function*() {
    const deployment = yield* Deployment
    const venues = yield* Venues
    const index = yield* ChainIndex
    const checkpoint = yield* Checkpoint
    const rpc = yield* ChainRpc
    const chainHead = yield* ChainHead
    const config = (yield* AppConfig).indexer
    const settings: IndexerSettings & { readonly checkpointSec: number } = {
      ...config,
      startBlock: deployment.startBlock
    }
    const fingerprint = fingerprintOf(deployment)

    const stored = yield* checkpoint.load(fingerprint)
    const resumable = yield* Option.match(stored, {
      onNone: () => Effect.succeed(Option.none()),
      onSome: (state) =>
        header(state.block).pipe(
          Effect.map((onChain) => onChain !== undefined && onChain.hash === state.hash),
          Effect.timeout("5 seconds"),
          // Unreachable now: keep it; the stream checks the tip against the chain before building on it.
          Effect.orElseSucceed(() => true),
          Effect.map((onChain) => (onChain ? Option.some(state) : Option.none()))
        )
    }).pipe(Effect.provideService(ChainRpc, rpc))
    if (Option.isSome(stored) && Option.isNone(resumable)) {
      yield* Effect.logInfo("checkpoint block is no longer on the chain; indexing from the start block")
    }
    const initial = Option.getOrElse(resumable, () => emptyState(settings.startBlock))
    if (Option.isSome(resumable)) yield* Effect.logInfo(`indexer resumes from checkpoint at block ${initial.block}`)

    const tip = yield* Ref.make<Tip>({
      state: initial,
      recent: initial.hash === null ? [] : [{ number: initial.block, hash: initial.hash, state: initial }],
      epoch: 0
    })
    const progress = yield* makeProgress(initial.block, Option.isSome(resumable) ? initial.block : null)
    const engine: Engine = {
      settings,
      sources: sourcesFrom(venues.all, deployment.contracts),
      tip,
      sizer: yield* makeBatchSizer(settings.batchBlocks),
      topicSizer: yield* makeBatchSizer(Number.MAX_SAFE_INTEGER),
      fullBlocksFrom: yield* Ref.make(0),
      progress,
      index,
      chainHead
    }
    yield* index.publish({ state: initial, head: 0, headTime: 0, catchingUp: true, epoch: 0 })

    const saved = yield* Ref.make(initial.block)
    const saveCheckpoint = Effect.gen(function*() {
      const { state } = yield* Ref.get(tip)
      if (state.block <= (yield* Ref.get(saved)) || state.hash === null) return
      yield* checkpoint.save(state, fingerprint)
      yield* Ref.set(saved, state.block)
    }).pipe(Effect.catchAllCause((cause) => Effect.logWarning("checkpoint write failed", cause)))

    yield* runPipeline(engine).pipe(Effect.provideService(ChainRpc, rpc), Effect.forkScoped)
    yield* saveCheckpoint.pipe(Effect.repeat(Schedule.spaced(`${settings.checkpointSec} seconds`)), Effect.forkScoped)
    yield* Effect.addFinalizer(() => saveCheckpoint)

    return {
      settings: config,
      /** Head worked towards, indexed block, logs/s, catching-up flag: what `/health` shows. */
      progress: progress.get,
      /** Writes a checkpoint now if the tip moved since the last one. */
      saveCheckpoint
    }
  }),
  dependencies: [Checkpoint.Default]
}) {}
