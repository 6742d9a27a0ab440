/**
 * The indexer against a private devnet it can disturb: a reorg (anvil snapshot, a fork of blocks,
 * revert, a different and longer fork) leaves the index equal to a fresh rebuild at the new head; a
 * restart resumes from the checkpoint instead of the start block, and one at the head counts as synced;
 * heads pushed over a websocket.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Either, Option, Queue, Stream } from "effect"
import { getAddress } from "viem"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { ChainIndex } from "../../src/indexer/ChainIndex.js"
import { currentFreshness, freshnessOf } from "../../src/indexer/Freshness.js"
import { Indexer } from "../../src/indexer/Indexer.js"
import { search } from "../../src/operations/search.js"
import { clientsFor, manifestAccount, type PrivateDevnet, startDevnet } from "../support/devnet.js"
import { indexRuntime, synced, tempDir } from "../support/services.js"
import { canonical } from "./compare.js"
import { marketMaker } from "./market.js"

let devnet: PrivateDevnet
beforeAll(async () => {
  devnet = await startDevnet()
})
afterAll(() => devnet?.stop())

const stateAtHead = (runtime: ReturnType<typeof indexRuntime>) =>
  runtime.runPromise(Effect.map(synced, (snapshot) => snapshot.state))

const rebuiltAtHead = async () => {
  const fresh = indexRuntime(devnet.manifest)
  try {
    return await stateAtHead(fresh)
  } finally {
    await fresh.dispose()
  }
}

describe("reorg", () => {
  it("rolls back to the common ancestor and equals a fresh rebuild at the new head", async () => {
    const runtime = indexRuntime(devnet.manifest, { settings: { INDEXER_REORG_WINDOW: "32" } })
    try {
      await stateAtHead(runtime)
      const account = manifestAccount(devnet.manifest, 6)
      const { test } = clientsFor(devnet.manifest)
      const maker = marketMaker(devnet.manifest, account)
      const fork = await test.snapshot()

      const alpha = await maker.listToken("Alpha Fork", "ALPHA")
      await maker.buy(alpha.pair, 50n * 10n ** 6n)
      const before = await stateAtHead(runtime)
      const seen = await runtime.runPromise(search({ query: "ALPHA", limit: 5 }))
      expect(seen.results[0]!.address).toBe(getAddress(alpha.token))

      await test.revert({ id: fork })
      // The same account and nonces: BETA is deployed at ALPHA's address, with other metadata.
      const beta = await maker.listToken("Beta Fork", "BETA", 2_000n)
      expect(beta.token).toBe(alpha.token)
      await maker.buy(beta.pair, 70n * 10n ** 6n)
      await maker.buy(beta.pair, 30n * 10n ** 6n)
      await test.mine({ blocks: 3 })
      const after = await stateAtHead(runtime)
      expect(after.block).toBeGreaterThan(before.block)

      const progress = await runtime.runPromise(Effect.flatMap(Indexer, (indexer) => indexer.progress))
      expect(progress.rollbacks).toBeGreaterThanOrEqual(1)
      const gone = await runtime.runPromise(Effect.either(search({ query: "ALPHA", limit: 5 })))
      expect(Either.isLeft(gone) && gone.left._tag).toBe("TokenNotFound")
      const found = await runtime.runPromise(search({ query: "BETA", limit: 5 }))
      expect(found.results[0]!.name).toBe("Beta Fork")

      expect(canonical(after)).toBe(canonical(await rebuiltAtHead()))
    } finally {
      await runtime.dispose()
    }
  })
})

/** An index run to the head and stopped: its data directory holds a checkpoint at `stopped`. */
const checkpointedAtHead = async (name: string) => {
  const dataDir = tempDir(name)
  const first = indexRuntime(devnet.manifest, { dataDir })
  const stopped = await stateAtHead(first)
  // Closing the scope writes the last checkpoint.
  await first.dispose()
  return { dataDir, stopped }
}

describe("checkpoint", () => {
  it("a restart resumes from the checkpoint, not from the start block, and ends where a rebuild does", async () => {
    const { dataDir, stopped } = await checkpointedAtHead("checkpoint")

    const maker = marketMaker(devnet.manifest, manifestAccount(devnet.manifest, 7))
    const gamma = await maker.listToken("Gamma Late", "GAMMA")
    await maker.buy(gamma.pair, 25n * 10n ** 6n)

    const second = indexRuntime(devnet.manifest, { dataDir })
    try {
      const resumed = await stateAtHead(second)
      const progress = await second.runPromise(Effect.flatMap(Indexer, (indexer) => indexer.progress))
      expect(progress.resumedFrom).toBe(stopped.block)
      expect(progress.firstFetched).toBe(stopped.block + 1)
      expect(progress.firstFetched).toBeGreaterThan(devnet.manifest.startBlock)
      expect(canonical(resumed)).toBe(canonical(await rebuiltAtHead()))
    } finally {
      await second.dispose()
    }
  })
})

describe("restart at the head", () => {
  it("an index resumed at the head of an idle chain is synced: the next block is waited for, not refused", async () => {
    const { dataDir, stopped } = await checkpointedAtHead("resumed-at-head")

    const second = indexRuntime(devnet.manifest, { dataDir })
    try {
      expect((await stateAtHead(second)).block).toBe(stopped.block)
      const { bounds, input } = await second.runPromise(currentFreshness)
      expect(input.progress.firstFetched).toBeNull()
      // The next block seen before it is applied: the index trails it, it has not "never reached" the head.
      const next = { ...input.head!, header: { ...input.head!.header, number: stopped.block + 1 } }
      const freshness = freshnessOf({ ...input, head: next, aheadSince: input.now }, bounds)
      expect([freshness.status, freshness.reason]).toEqual(["ok", null])
    } finally {
      await second.dispose()
    }
  })
})

describe("newHeads", () => {
  it("ChainRpc pushes heads in chain order, the newest last, when blocks come in bursts", async () => {
    const rpc = ChainRpc.make({
      rpcUrl: devnet.manifest.rpcUrl,
      chainId: devnet.manifest.chainId,
      wsUrl: devnet.manifest.rpcUrl.replace(/^http/, "ws")
    })
    const { public: reader, test } = clientsFor(devnet.manifest)
    const bursts = 20
    const received = await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const pushed = yield* Queue.unbounded<bigint>()
      yield* Option.getOrThrow(rpc.heads).pipe(
        Stream.runForEach((head) => Queue.offer(pushed, head.number)),
        Effect.forkScoped
      )
      // The subscription opens in the background: single blocks until one is pushed show it is live.
      let first = Option.none<bigint>()
      while (Option.isNone(first)) {
        yield* Effect.promise(() => test.mine({ blocks: 1 }))
        first = yield* Queue.take(pushed).pipe(Effect.timeout("300 millis"), Effect.option)
      }
      yield* Queue.takeAll(pushed)
      const from = Number(yield* Effect.promise(() => reader.getBlockNumber())) + 1
      for (let i = 0; i < bursts; i++) {
        yield* Effect.promise(() => Promise.all([1, 2, 3, 4].map(() => test.mine({ blocks: 1 }))))
      }
      const numbers = yield* Effect.forEach(Array.from({ length: bursts * 4 }), () => Queue.take(pushed)).pipe(
        Effect.timeout("10 seconds")
      )
      return { from, numbers: numbers.map(Number) }
    })))
    expect(received.numbers).toEqual(received.numbers.map((_, i) => received.from + i))
  })

  it("with a websocket the index follows pushed heads, long before its next poll", async () => {
    const runtime = indexRuntime(devnet.manifest, {
      settings: { WS_URL: devnet.manifest.rpcUrl.replace(/^http/, "ws"), INDEXER_POLL_MS: "600000" }
    })
    try {
      await stateAtHead(runtime)
      // The subscription opens in the background: empty blocks until one is followed show it is live.
      const { test } = clientsFor(devnet.manifest)
      const follows = async () => {
        await test.mine({ blocks: 1 })
        const head = Number(await clientsFor(devnet.manifest).public.getBlockNumber())
        return runtime.runPromise(
          Effect.flatMap(ChainIndex, (index) => index.waitFor(head)).pipe(Effect.timeout("1 second"), Effect.isSuccess)
        )
      }
      let live = false
      for (let attempt = 0; attempt < 5 && !live; attempt++) live = await follows()
      expect(live).toBe(true)
      const listed = await marketMaker(devnet.manifest, manifestAccount(devnet.manifest, 5)).listToken("Pushed", "PUSH")
      // The only poll was at start-up: the next is ten minutes away.
      await runtime.runPromise(
        Effect.flatMap(ChainIndex, (index) => index.waitFor(listed.block)).pipe(Effect.timeout("5 seconds"))
      )
      const found = await runtime.runPromise(search({ query: "PUSH", limit: 1 }))
      expect(found.results[0]!.address).toBe(getAddress(listed.token))
    } finally {
      await runtime.dispose()
    }
  })
})
