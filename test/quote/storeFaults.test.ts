/**
 * The Redis quote store when it cannot do its job: a step that keeps losing its compare-and-set gives
 * up after `ATTEMPTS` tries, and a Redis that goes away mid-run fails each call; both as 503
 * `rpc_unavailable` (`next: retry`), a typed error the gate never charges, not a defect (500).
 *
 * The lost race is real: the transition itself, on the store's own connection, bumps the version the
 * store then compares against (commands on one connection run in order), so every compare-and-set
 * loses. The Redis that goes away is a redis-server of this test's own, on a free port, killed here;
 * the shared one is used only under this test's key prefix.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { randomUUID } from "node:crypto"
import { redisClient } from "../../layers/Redis.js"
import { ATTEMPTS, redisQuoteStore } from "../../layers/RedisQuoteStore.js"
import { errorTable } from "../../schema/ErrorTable.js"
import { freePort } from "../../scripts/cluster/Cluster.js"
import { record } from "../support/quoteRecord.js"
import { dropKeys, redisUp, redisUrl } from "../support/redis.js"

const prefix = `test:storefaults:${randomUUID()}:`
afterAll(() => dropKeys(prefix))

const connect = (url: string) => Effect.orDie(redisClient(url, (cause) => cause))

/** A redis-server of this test's own, without persistence, killed when the scope closes. */
const ownRedis = Effect.acquireRelease(
  Effect.promise(async () => {
    const port = await freePort()
    const server = spawn("redis-server", ["--port", String(port), "--save", "", "--appendonly", "no"], {
      stdio: ["ignore", "pipe", "ignore"]
    })
    await new Promise<void>((resolve, reject) => {
      server.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("Ready to accept") && resolve())
      server.once("exit", () => reject(new Error("redis-server exited at start")))
    })
    return { server, url: `redis://127.0.0.1:${port}` }
  }),
  ({ server }) => Effect.sync(() => server.kill("SIGKILL"))
)

const stopped = (server: ChildProcess) =>
  Effect.promise(() => new Promise<void>((resolve) => (server.once("exit", () => resolve()), server.kill("SIGKILL"))))

describe("Redis quote store faults", () => {
  it("both faults are 503 rpc_unavailable with next retry", () => {
    expect(errorTable.RpcUnavailable).toMatchObject({ status: 503, next: "retry" })
  })

  it.scopedLive.skipIf(!redisUp)(
    "a step that loses every race gives up after a bounded number of tries",
    () =>
      Effect.gen(function*() {
        const redis = yield* connect(redisUrl)
        const store = redisQuoteStore(redis, prefix, 60_000)
        yield* store.put(record("q_lost", Date.now() + 120_000))
        let tries = 0
        const outcome = yield* Effect.either(store.update("q_lost", (found) => {
          tries++
          // Another replica's write, landing between this step's read and its compare-and-set.
          void redis.hincrby(`${prefix}quote:q_lost`, "v", 1)
          return [undefined, { ...found.record, attempts: { ...found.record.attempts, swapFailures: 1 } }] as const
        }))
        expect(Either.isLeft(outcome) && outcome.left._tag).toBe("RpcUnavailable")
        expect(tries).toBe(ATTEMPTS)
        const after = yield* store.get("q_lost")
        expect(after._tag === "Live" && after.record.attempts.swapFailures).toBe(0)
      })
  )

  it.scopedLive("Redis gone mid-run: put, get and update fail as rpc_unavailable, not as a defect", () =>
    Effect.gen(function*() {
      const { server, url } = yield* ownRedis
      const store = redisQuoteStore(yield* connect(url), prefix, 60_000)
      yield* store.put(record("q_gone", Date.now() + 120_000))
      expect((yield* store.get("q_gone"))._tag).toBe("Live")
      yield* stopped(server)
      const calls = [
        store.put(record("q_gone2", Date.now() + 120_000)),
        store.get("q_gone"),
        store.update("q_gone", (found) => [undefined, found.record] as const)
      ]
      for (const call of calls) {
        const exit = yield* Effect.exit(call)
        expect(exit._tag === "Failure" && exit.cause._tag === "Fail" && exit.cause.error._tag).toBe("RpcUnavailable")
      }
    }))
})
