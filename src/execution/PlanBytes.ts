/**
 * The plan's calldata (plan encoding 5): `RouterPlan` as bytes, every field at its own width, as the router
 * reads them by offset (contracts/router/ITradeRouter.sol has the layout, contracts/router/PlanRules.sol
 * the reader). Nothing is padded and nothing repeated: a taker-paid step's input is the sell token and a
 * step paying the recipient makes the buy token, so the plan does not carry them; a chain link's output is
 * the input of the step above and its amount what that step owes, so a link carries neither. A step's
 * flags byte says which pool key fields follow (bits 3-4), so a plan reads back without the venue table.
 * Every value has one encoding (amounts without leading zero bytes), which is what lets `planHash` be the
 * hash of the bytes. Pure.
 */
import { type Address, concat, getAddress, type Hex, hexToBytes, numberToHex, toHex, zeroAddress } from "viem"
import type { FundingCode, RouterPlan, RouterStep } from "./RouterAbi.js"

/** Where the bytes `planHash` covers begin: after the quote tag (32), head (1) and deadline (6). */
export const HASHED_FROM = 39

const LINK = 7
const LAST_LINK = 5
const FROM_ROUTER = 2
const TO_ROUTER = 4
const EXACT_OUT = 1
/** A step's flags bits 3-4: none (v2, curve), a fee (v3), fee, tick spacing and hooks (v4). */
const KEY_FEE = 1
const KEY_V4 = 2

const fits = (value: bigint, bits: bigint, name: string): bigint => {
  if (value < 0n || value >> bits !== 0n) throw new Error(`plan ${name} ${value} does not fit ${bits} bits`)
  return value
}

const fixed = (value: bigint, bytes: number): Hex => numberToHex(value, { size: bytes })

/** A length byte and the value's big-endian bytes without leading zeros (0 is the length byte alone). */
const amount = (value: bigint, name: string): Hex => {
  fits(value, 256n, name)
  if (value === 0n) return "0x00"
  const digits = value.toString(16)
  const bytes = Math.ceil(digits.length / 2)
  return concat([fixed(BigInt(bytes), 1), fixed(value, bytes)])
}

const keyKind = (step: RouterStep): number =>
  step.tickSpacing !== 0 || step.hooks !== zeroAddress ? KEY_V4 : step.fee !== 0 ? KEY_FEE : 0

const key = (step: RouterStep, kind: number): ReadonlyArray<Hex> => {
  if (kind === 0) return []
  const fee = fixed(fits(BigInt(step.fee), 24n, "fee"), 3)
  if (kind === KEY_FEE) return [fee]
  const tick = BigInt(step.tickSpacing)
  if (tick < -(1n << 23n) || tick >= 1n << 23n) throw new Error(`plan tickSpacing ${tick} does not fit int24`)
  return [fee, fixed(tick & 0xffffffn, 3), step.hooks]
}

const stepHead = (step: RouterStep, kind: number): ReadonlyArray<Hex> => {
  if (step.flags < 0 || step.flags > LINK) throw new Error(`plan step flags ${step.flags} are not 0-7`)
  return [fixed(fits(BigInt(step.venue), 8n, "venue"), 1), fixed(BigInt(step.flags | (kind << 3)), 1), step.pool]
}

const same = (a: Address, b: Address) => a.toLowerCase() === b.toLowerCase()

/** A step outside a chain: its input if it comes from the router, its output if it stays there. */
const mainStep = (plan: RouterPlan, step: RouterStep, i: number): ReadonlyArray<Hex> => {
  if (!(step.flags & FROM_ROUTER) && !same(step.tokenIn, plan.sellToken)) {
    throw new Error(`plan step ${i}: a taker-paid step spends the sell token`)
  }
  if (!(step.flags & TO_ROUTER) && !same(step.tokenOut, plan.buyToken)) {
    throw new Error(`plan step ${i}: a step paying the recipient makes the buy token`)
  }
  const kind = keyKind(step)
  return [
    ...stepHead(step, kind),
    ...(step.flags & FROM_ROUTER ? [step.tokenIn] : []),
    ...(step.flags & TO_ROUTER ? [step.tokenOut] : []),
    ...key(step, kind),
    amount(step.amount, "amount"),
    amount(step.limit, "limit")
  ]
}

/** A chain link: its input unless it is the last (the taker pays that in the sell token), its key, its limit. */
const linkStep = (plan: RouterPlan, above: RouterStep, step: RouterStep, i: number): ReadonlyArray<Hex> => {
  if (!same(step.tokenOut, above.tokenIn)) throw new Error(`plan step ${i}: a link makes the input of the step above`)
  if (step.amount !== 0n) throw new Error(`plan step ${i}: a link's amount is what the step above owes (0)`)
  if (step.flags === LAST_LINK && !same(step.tokenIn, plan.sellToken)) {
    throw new Error(`plan step ${i}: a chain's last link spends the sell token`)
  }
  const kind = keyKind(step)
  return [
    ...stepHead(step, kind),
    ...(step.flags === LINK ? [step.tokenIn] : []),
    ...key(step, kind),
    amount(step.limit, "limit")
  ]
}

const isHead = (step: RouterStep) => (step.flags & EXACT_OUT) !== 0 && (step.flags & FROM_ROUTER) !== 0

/** The plan's bytes, as `execute` takes them. Throws on a plan the encoding cannot say (a field too wide, a
 * step naming a token the rules imply). */
export const encodePlan = (plan: RouterPlan): Hex => {
  if (plan.funding < 0 || plan.funding > 3) throw new Error(`plan funding ${plan.funding} does not fit 2 bits`)
  if (plan.steps.length > 255) throw new Error(`plan has ${plan.steps.length} steps, at most 255`)
  const parts: Array<Hex> = [
    plan.quoteTag,
    fixed(BigInt(plan.funding | (plan.exactOut ? 4 : 0)), 1),
    fixed(fits(plan.deadline, 48n, "deadline"), 6),
    plan.sellToken,
    plan.buyToken,
    plan.recipient,
    amount(plan.amountIn, "amountIn"),
    amount(plan.minAmountOut, "minAmountOut"),
    fixed(BigInt(plan.steps.length), 1)
  ]
  let above: RouterStep | undefined
  plan.steps.forEach((step, i) => {
    // Inside a chain every step up to the last link is a link; a step that is not one ends it (the router
    // refuses the plan there).
    if (above !== undefined && (step.flags === LINK || step.flags === LAST_LINK)) {
      parts.push(...linkStep(plan, above, step, i))
      above = step.flags === LINK ? step : undefined
      return
    }
    parts.push(...mainStep(plan, step, i))
    above = isHead(step) ? step : undefined
  })
  return concat(parts)
}

/** Reads plan bytes by offset, refusing what the router refuses for shape. */
class Reader {
  private at = 0
  constructor(private readonly bytes: Uint8Array) {}
  get offset() {
    return this.at
  }
  get done() {
    return this.at === this.bytes.length
  }
  take(size: number): Uint8Array {
    if (this.at + size > this.bytes.length) throw new Error(`malformed plan: it ends before offset ${this.at + size}`)
    const slice = this.bytes.subarray(this.at, this.at + size)
    this.at += size
    return slice
  }
  uint(size: number): bigint {
    return size === 0 ? 0n : BigInt(toHex(this.take(size)))
  }
  address(): Address {
    return getAddress(toHex(this.take(20)))
  }
  amount(): bigint {
    const at = this.at
    const length = Number(this.uint(1))
    if (length > 32) throw new Error(`malformed plan: amount at ${at} is ${length} bytes`)
    const body = this.take(length)
    if (length > 0 && body[0] === 0) throw new Error(`malformed plan: amount at ${at} has a leading zero byte`)
    return length === 0 ? 0n : BigInt(toHex(body))
  }
}

const readKey = (reader: Reader, kind: number): Pick<RouterStep, "fee" | "tickSpacing" | "hooks"> => {
  if (kind === 0) return { fee: 0, tickSpacing: 0, hooks: zeroAddress }
  const fee = Number(reader.uint(3))
  if (kind === KEY_FEE) return { fee, tickSpacing: 0, hooks: zeroAddress }
  const tick = Number(reader.uint(3))
  return { fee, tickSpacing: tick >= 1 << 23 ? tick - (1 << 24) : tick, hooks: reader.address() }
}

const readFlags = (reader: Reader, i: number) => {
  const venue = Number(reader.uint(1))
  const byte = Number(reader.uint(1))
  const kind = byte >> 3
  if (kind > KEY_V4) throw new Error(`plan step ${i}: flags ${byte} have bits above the key kind`)
  return { venue, flags: byte & 7, kind, pool: reader.address() }
}

/** A plan read back from its bytes (as the router reads it; the venue table's checks are the router's). */
export const decodePlan = (data: Hex): RouterPlan => {
  const reader = new Reader(hexToBytes(data))
  const quoteTag = toHex(reader.take(32))
  const head = Number(reader.uint(1))
  if (head >> 3 !== 0) throw new Error(`plan head ${head} has bits above its fields`)
  const deadline = reader.uint(6)
  const sellToken = reader.address()
  const buyToken = reader.address()
  const recipient = reader.address()
  const amountIn = reader.amount()
  const minAmountOut = reader.amount()
  const count = Number(reader.uint(1))
  const steps: Array<RouterStep> = []
  let above: RouterStep | undefined
  for (let i = 0; i < count; i++) {
    const { venue, flags, kind, pool } = readFlags(reader, i)
    if (above !== undefined) {
      if (flags !== LINK && flags !== LAST_LINK) throw new Error(`plan step ${i}: a chain's link expected`)
      const tokenIn = flags === LINK ? reader.address() : sellToken
      const step = {
        venue,
        flags,
        pool,
        tokenIn,
        tokenOut: above.tokenIn,
        ...readKey(reader, kind),
        amount: 0n,
        limit: reader.amount()
      }
      steps.push(step)
      above = flags === LINK ? step : undefined
      continue
    }
    const tokenIn = flags & FROM_ROUTER ? reader.address() : sellToken
    const tokenOut = flags & TO_ROUTER ? reader.address() : buyToken
    const step = {
      venue,
      flags,
      pool,
      tokenIn,
      tokenOut,
      ...readKey(reader, kind),
      amount: reader.amount(),
      limit: reader.amount()
    }
    steps.push(step)
    above = isHead(step) ? step : undefined
  }
  if (above !== undefined) throw new Error(`plan step ${count}: the chain has no last link`)
  if (!reader.done) throw new Error(`malformed plan: bytes after its last step, at offset ${reader.offset}`)
  return {
    quoteTag,
    sellToken,
    buyToken,
    recipient,
    funding: (head & 3) as FundingCode,
    exactOut: (head & 4) !== 0,
    amountIn,
    minAmountOut,
    deadline,
    steps
  }
}
