/**
 * The exposure book (./ExposureBook.ts) in Redis, shared by every replica on one `REDIS_URL` and
 * `REDIS_PREFIX`: a payer's admission turn is a key set only if absent (so two replicas never admit two
 * calls of one payer on the same balance), a payer's unconfirmed calls are one hash per payer (what the
 * next admission must find covered), the value served before confirmation is one hash the total cap is
 * summed from, and a debt is a key every replica reads before admitting the payer. Every entry expires
 * on its own (a turn's lease within seconds unless its replica renews it, an unconfirmed entry with its
 * authorization, a debt with its refusal time), so a replica that dies holding one blocks nobody long.
 * The caps are checked and the call recorded in one script, so replicas serving at the same instant
 * cannot pass them between them.
 */
import { Clock, Effect } from "effect"
import type { Redis } from "ioredis"
import { LedgerUnavailable } from "./AuthorizationLedger.js"
import {
  type Debt,
  type ExposureBook,
  type ExposureSettings,
  nothingUnconfirmed,
  sum,
  topPayers
} from "./ExposureBook.js"

// KEYS: slot; ARGV: key. Frees the slot only for the call that holds it.
const FREE = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`

// KEYS: slot; ARGV: key, lease in ms. Extends the lease only while the call still holds the slot.
const RENEW =
  `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) end return 0`

// KEYS: at risk (all payers), the payer's entries; ARGV: key, value, expires at ms, now ms, cap, payer
// cap, nonce, payer. Drops the expired entries of both, records the call as the payer's, and as served
// before confirmation only if both sums stay within their caps: 1 when it is. Lua's numbers are exact to
// 2^53 base units (9 billion USDC), far past any cap.
const RESERVE = `
local now = tonumber(ARGV[4])
local function live(key, pattern)
  local total = 0
  local entries = redis.call("hgetall", key)
  for i = 1, #entries, 2 do
    local value, untilMs, risk = string.match(entries[i + 1], pattern)
    if tonumber(untilMs) <= now then
      redis.call("hdel", key, entries[i])
    elseif risk == nil or risk == "1" then
      total = total + tonumber(value)
    end
  end
  return total
end
local value = tonumber(ARGV[2])
local total = live(KEYS[1], "^(%d+):(%d+):")
local mine = live(KEYS[2], "^(%d+):(%d+):%w+:(%d)$")
local atRisk = (total + value <= tonumber(ARGV[5]) and mine + value <= tonumber(ARGV[6])) and 1 or 0
redis.call("hset", KEYS[2], ARGV[1], ARGV[2] .. ":" .. ARGV[3] .. ":" .. ARGV[7] .. ":" .. atRisk)
local ttl = math.max(1, tonumber(ARGV[3]) - now)
if redis.call("pttl", KEYS[2]) < ttl then redis.call("pexpire", KEYS[2], ttl) end
if atRisk == 1 then redis.call("hset", KEYS[1], ARGV[1], ARGV[2] .. ":" .. ARGV[3] .. ":" .. ARGV[8]) end
return atRisk`

// How often a call waiting for its payer's turn held on another replica looks again: a turn lasts a
// verification, a few milliseconds.
const SLOT_POLL_MS = 5
// A turn is leased, and renewed by its replica while the call holds it: a replica that dies holding one
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
  const slot = (payer: string) => `${prefix}exposure:turn:${payer.toLowerCase()}`
  // field: authorization key, value: "<base units>:<expires at ms>:<nonce>:<1 at risk, 0 confirmed first>"
  const payerEntries = (payer: string) => `${prefix}exposure:payer:${payer.toLowerCase()}`
  const debtKey = (payer: string) => `${prefix}exposure:debt:${payer.toLowerCase()}`
  const debtors = `${prefix}exposure:debtors`
  // field: authorization key, value: "<base units>:<expires at ms>:<payer>", served before confirmation
  const unconfirmed = `${prefix}exposure:atrisk`
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

  /** The entries of a hash still live, split into their fields. */
  const live = (key: string, action: string) =>
    Effect.flatMap(
      Clock.currentTimeMillis,
      (nowMs) =>
        Effect.map(command(action, () => redis.hgetall(key)), (entries) =>
          Object.entries(entries).flatMap(([field, entry]) => {
            const parts = entry.split(":")
            return Number(parts[1]) > nowMs ? [{ key: field, parts }] : []
          }))
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
    unconfirmedOf: (payer) =>
      Effect.map(
        live(payerEntries(payer), "read the payer's unconfirmed"),
        (entries) => entries.map(({ key, parts }) => ({ key, value: BigInt(parts[0] ?? "0"), nonce: parts[2] ?? "" }))
      ),
    reserve: (payer, entry, expiresAtMs, early) =>
      Effect.flatMap(Clock.currentTimeMillis, (nowMs) =>
        command("count an unconfirmed settlement", () =>
          redis.eval(
            RESERVE,
            2,
            unconfirmed,
            payerEntries(payer),
            entry.key,
            `${entry.value}`,
            expiresAtMs,
            nowMs,
            // Not early: no room can be enough.
            early ? `${settings.unconfirmedCap}` : "-1",
            `${settings.payerCap}`,
            entry.nonce,
            payer.toLowerCase()
          ))).pipe(Effect.map((atRisk) => atRisk === 1)),
    close: (payer, key) =>
      command("uncount a settlement", () => redis.multi().hdel(unconfirmed, key).hdel(payerEntries(payer), key).exec())
        .pipe(Effect.ignore),
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
      const atRisk = (yield* live(unconfirmed, "read the unconfirmed")).map(({ parts }) => ({
        payer: parts[2] ?? "",
        value: BigInt(parts[0] ?? "0")
      }))
      const payers = yield* command("list the debtors", () => redis.zrangebyscore(debtors, nowMs + 1, "+inf"))
      const owed = yield* Effect.forEach(payers, debtOf, { concurrency: "unbounded" })
      const debts = owed.filter((debt) => debt !== undefined)
      return {
        unconfirmed: { count: atRisk.length, value: sum(atRisk.map((entry) => entry.value)) },
        debts: { count: debts.length, value: sum(debts.map((debt) => debt.value)) },
        payers: topPayers(atRisk)
      }
    }).pipe(Effect.orElseSucceed(() => nothingUnconfirmed))
  }
}
