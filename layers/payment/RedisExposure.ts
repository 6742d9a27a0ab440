/**
 * The exposure book (./Exposure.ts) in Redis, shared by every replica on one `REDIS_URL` and
 * `REDIS_PREFIX`: a payer's one slot is a key set only if absent (so two replicas never hold two
 * unconfirmed settlements of one payer), a debt is a key every replica reads before admitting the
 * payer, and the unconfirmed settlements are one hash the cap is summed from. Every entry expires on
 * its own (a slot's lease within seconds unless its replica renews it, an unconfirmed entry with its
 * authorization, a debt with its refusal time), so a replica that dies holding one blocks nobody long.
 * The cap is checked and the call counted in one script, so replicas serving at the same instant cannot
 * pass it between them.
 */
import { Clock, Effect } from "effect"
import type { Redis } from "ioredis"
import { LedgerUnavailable } from "./AuthorizationLedger.js"
import { type Debt, type ExposureBook, type ExposureSettings, sum } from "./Exposure.js"

// KEYS: slot; ARGV: key. Frees the slot only for the call that holds it.
const FREE = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`

// KEYS: slot; ARGV: key, lease in ms. Extends the lease only while the call still holds the slot.
const RENEW =
  `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) end return 0`

// KEYS: unconfirmed; ARGV: key, value, expires at ms, now ms, cap. Sums the live entries (dropping the
// expired), and counts the call only if the sum stays within the cap: 1 when counted. Lua's numbers are
// exact to 2^53 base units (9 billion USDC), far past any cap.
const RESERVE = `
local total = tonumber(ARGV[2])
local entries = redis.call("hgetall", KEYS[1])
for i = 1, #entries, 2 do
  local value, untilMs = string.match(entries[i + 1], "^(%d+):(%d+)$")
  if tonumber(untilMs) > tonumber(ARGV[4]) then
    total = total + tonumber(value)
  else
    redis.call("hdel", KEYS[1], entries[i])
  end
end
if total > tonumber(ARGV[5]) then return 0 end
redis.call("hset", KEYS[1], ARGV[1], ARGV[2] .. ":" .. ARGV[3])
return 1`

// How often a call waiting for its payer's slot held on another replica looks again.
const SLOT_POLL_MS = 20
// A slot is leased, and renewed by its replica while the call holds it: a replica that dies holding one
// keeps the payer waiting this long, not for the authorization's whole life.
const SLOT_LEASE_MS = 5_000

const failed = (action: string) => (cause: unknown) =>
  new LedgerUnavailable({
    message: `exposure book (Redis) failed to ${action}: ${cause instanceof Error ? cause.message : String(cause)}`
  })

interface StoredDebt {
  readonly value: string
  readonly transaction: string
  readonly reason: string
  readonly sinceBlock: string
}

export const redisExposureBook = (redis: Redis, prefix: string, settings: ExposureSettings): ExposureBook => {
  const slot = (payer: string) => `${prefix}exposure:slot:${payer.toLowerCase()}`
  const debtKey = (payer: string) => `${prefix}exposure:debt:${payer.toLowerCase()}`
  const debtors = `${prefix}exposure:debtors`
  // field: authorization key, value: "<base units>:<expires at ms>"
  const unconfirmed = `${prefix}exposure:unconfirmed`
  const command = <A>(action: string, run: () => Promise<A>) => Effect.tryPromise({ try: run, catch: failed(action) })
  const lifetime = (expiresAtMs: number) =>
    Effect.map(Clock.currentTimeMillis, (nowMs) => Math.max(1, expiresAtMs - nowMs))

  // Renews the lease until the slot is freed (or Redis stops answering): then the loop ends by itself.
  const renew = (payer: string, key: string): Effect.Effect<void> =>
    Effect.zipRight(
      Effect.sleep(SLOT_LEASE_MS / 3),
      command("renew the payer's slot", () => redis.eval(RENEW, 1, slot(payer), key, SLOT_LEASE_MS))
    ).pipe(Effect.flatMap((renewed) => renewed === 1 ? renew(payer, key) : Effect.void), Effect.ignore)

  const take = (payer: string, key: string, expiresAtMs: number): Effect.Effect<boolean, LedgerUnavailable> =>
    Effect.flatMap(
      lifetime(expiresAtMs),
      (ms) =>
        command("take the payer's slot", () => redis.set(slot(payer), key, "PX", Math.min(ms, SLOT_LEASE_MS), "NX"))
    ).pipe(
      Effect.zip(Clock.currentTimeMillis),
      Effect.flatMap(([taken, nowMs]) =>
        taken === "OK"
          ? Effect.as(Effect.forkDaemon(renew(payer, key)), true)
          : nowMs >= expiresAtMs
          ? Effect.succeed(false)
          : Effect.zipRight(Effect.sleep(SLOT_POLL_MS), take(payer, key, expiresAtMs))
      )
    )

  /** The unconfirmed entries still live, by authorization key. */
  const live = Effect.flatMap(
    Clock.currentTimeMillis,
    (nowMs) =>
      Effect.map(
        command("read the unconfirmed", () => redis.hgetall(unconfirmed)),
        (entries) =>
          Object.values(entries).flatMap((entry) => {
            const [value, until] = entry.split(":")
            return Number(until) > nowMs ? [BigInt(value ?? "0")] : []
          })
      )
  )

  const debtOf = (payer: string) =>
    Effect.flatMap(Clock.currentTimeMillis, (nowMs) =>
      command("read a debt", async (): Promise<Debt | undefined> => {
        const [entries, ttl] = await Promise.all([redis.hgetall(debtKey(payer)), redis.pttl(debtKey(payer))])
        const owed = Object.values(entries).map((entry) => JSON.parse(entry) as StoredDebt)
        const latest = owed.at(-1)
        if (latest === undefined || ttl <= 0) return undefined
        return {
          payer,
          value: sum(owed.map((debt) => BigInt(debt.value))),
          transaction: latest.transaction,
          reason: latest.reason,
          sinceBlock: owed.map((debt) => BigInt(debt.sinceBlock)).reduce((a, b) => (a < b ? a : b)),
          untilMs: nowMs + ttl
        }
      }))

  return {
    take,
    free: (payer, key) =>
      command("free the payer's slot", () => redis.eval(FREE, 1, slot(payer), key)).pipe(Effect.ignore),
    reserve: (key, value, expiresAtMs) =>
      Effect.flatMap(
        Clock.currentTimeMillis,
        (nowMs) =>
          command("count an unconfirmed settlement", () =>
            redis.eval(RESERVE, 1, unconfirmed, key, `${value}`, expiresAtMs, nowMs, `${settings.unconfirmedCap}`))
      ).pipe(
        Effect.map((counted) =>
          counted === 1
        )
      ),
    close: (key) => command("uncount a settlement", () => redis.hdel(unconfirmed, key)).pipe(Effect.ignore),
    owe: (debt) =>
      Effect.flatMap(Clock.currentTimeMillis, (nowMs) => {
        const refusalMs = settings.debtRefusalSec * 1000
        const stored: StoredDebt = {
          value: debt.value.toString(),
          transaction: debt.transaction,
          reason: debt.reason,
          sinceBlock: debt.sinceBlock.toString()
        }
        return command("record a debt", () =>
          redis.multi()
            .hset(debtKey(debt.payer), debt.transaction, JSON.stringify(stored))
            .pexpire(debtKey(debt.payer), refusalMs)
            .zadd(debtors, nowMs + refusalMs, debt.payer.toLowerCase())
            .exec())
      }).pipe(Effect.ignore),
    debtOf,
    forgive: (payer) =>
      command("forgive a debt", () => redis.multi().del(debtKey(payer)).zrem(debtors, payer.toLowerCase()).exec()),
    snapshot: Effect.gen(function*() {
      const nowMs = yield* Clock.currentTimeMillis
      const values = yield* live
      const payers = yield* command("list the debtors", () => redis.zrangebyscore(debtors, nowMs + 1, "+inf"))
      const owed = yield* Effect.forEach(payers, debtOf, { concurrency: "unbounded" })
      const debts = owed.filter((debt) => debt !== undefined)
      return {
        unconfirmed: { count: values.length, value: sum(values) },
        debts: { count: debts.length, value: sum(debts.map((debt) => debt.value)) }
      }
    }).pipe(Effect.orElseSucceed(() => ({
      unconfirmed: { count: 0, value: 0n },
      debts: { count: 0, value: 0n }
    })))
  }
}
