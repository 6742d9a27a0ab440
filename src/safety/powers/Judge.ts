/**
 * From observations to powers (pure). A trial shows an effect against the baseline (the same
 * simulation with no call): the supply or the watched balances rising (mint), the victim's or the
 * pool's balance falling though neither called (move), the victim's sell-back reverting or capped
 * (stop), its sell tax rising (tax; from half of the sale up it is confiscatory: stop). A trial's
 * effect is a power only when the same call by a stranger does not have it: a public mint or a
 * holder's own burn is no one's power.
 */
import type { Address, Hex } from "viem"
import type { Observed, Seen } from "./Probe.js"

export type PowerFlag = "owner_can_mint" | "owner_can_move_balances" | "owner_can_stop_sells" | "owner_can_set_tax"

export interface Shown {
  readonly flag: PowerFlag
  /** Which way the power showed (a sell reverting, capped or taxed…): one finding per way. */
  readonly way: string
  /** What the simulation saw, in words and figures. */
  readonly seen: string
}

export interface FoundPower extends Shown {
  readonly selector: Hex
  readonly shape: string
  readonly caller: Address
}

/** A sell tax from this share of the sale up takes what is sold: sells are stopped, not taxed. */
const CONFISCATORY_BPS = 5_000n
const VICTIM = 0
const POOL = 1

const sum = (values: ReadonlyArray<bigint>) => values.reduce((a, b) => a + b, 0n)
const taxBps = (sell: Seen["some"]) => sell.sent === 0n ? 0n : ((sell.sent - sell.received) * 10_000n) / sell.sent

export const effectsOf = (seen: Seen, baseline: Seen): ReadonlyArray<Shown> => {
  if (seen.readOnly || !seen.ok) return []
  const found: Array<Shown> = []
  const supplyRise = seen.supplyAfter - seen.supplyBefore
  const heldRise = sum(seen.afterwards) - sum(seen.before)
  if (supplyRise > 0n || heldRise > 0n) {
    found.push({
      flag: "owner_can_mint",
      way: supplyRise > 0n ? "supply" : "balances",
      seen: supplyRise > 0n
        ? `totalSupply rose by ${supplyRise} base units`
        : `balances rose by ${heldRise} base units with totalSupply unchanged`
    })
  }
  const holders = [[VICTIM, "a holder's"], [POOL, "the pool's"]] as const
  for (const [index, whose] of holders) {
    const fell = (seen.before[index] ?? 0n) - (seen.afterwards[index] ?? 0n)
    if (fell > 0n) {
      found.push({
        flag: "owner_can_move_balances",
        way: whose,
        seen: `${whose} balance fell by ${fell} base units without its call`
      })
    }
  }
  if (baseline.some.ok && seen.some.sent > 0n && !seen.some.ok) {
    found.push({
      flag: "owner_can_stop_sells",
      way: "reverts",
      seen: "the holder's sell-back of 1 % of its balance reverts"
    })
  } else if (baseline.all.ok && seen.some.ok && !seen.all.ok) {
    found.push({
      flag: "owner_can_stop_sells",
      way: "capped",
      seen: "the holder's sell-back of its whole balance reverts (capped)"
    })
  } else if (baseline.some.ok && seen.some.ok) {
    const before = taxBps(baseline.some)
    const after = taxBps(seen.some)
    if (after > before) {
      found.push({
        flag: after >= CONFISCATORY_BPS ? "owner_can_stop_sells" : "owner_can_set_tax",
        way: "taxed",
        seen: `the sell tax rose from ${before} to ${after} bp`
      })
    }
  }
  return found
}

const keyOf = (o: Observed) => `${o.trial.selector}|${o.trial.shape}`

/** The powers shown by `observed` (baseline first, with an empty selector), one per flag, function and caller. */
export const judge = (observed: ReadonlyArray<Observed>, stranger: Address): ReadonlyArray<FoundPower> => {
  const baseline = observed.find((o) => o.trial.selector === "0x")
  if (baseline === undefined) return []
  const publicEffects = new Map<string, Set<PowerFlag>>()
  for (const o of observed) {
    if (o.trial.caller !== stranger || o.trial.selector === "0x") continue
    publicEffects.set(keyOf(o), new Set(effectsOf(o.seen, baseline.seen).map((e) => e.flag)))
  }
  const found = new Map<string, FoundPower>()
  for (const o of observed) {
    if (o.trial.caller === stranger) continue
    const open = publicEffects.get(keyOf(o))
    for (const effect of effectsOf(o.seen, baseline.seen)) {
      // A trial the stranger's twin did not report (not run) proves nothing either way: skipped.
      if (open === undefined || open.has(effect.flag)) continue
      const id = `${effect.flag}|${effect.way}|${o.trial.selector}|${o.trial.caller}`
      if (!found.has(id)) {
        found.set(id, { ...effect, selector: o.trial.selector, shape: o.trial.shape, caller: o.trial.caller })
      }
    }
  }
  return [...found.values()]
}
