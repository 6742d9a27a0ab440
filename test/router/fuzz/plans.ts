/**
 * Random plans over the fuzzed world, from a seeded generator so a failure replays: one or two paths of
 * one or two hops, split or not, every funding kind, exact in or out, sometimes an impossible minimum,
 * and sometimes one corruption (a forged pool, a bad recipient, a stolen share, a wrong token, an
 * expired deadline, or the plan's bytes cut short, followed by more, or with one byte changed) that the
 * router must refuse. A corruption the encoding has no way to say (a taker-paid step naming another token
 * than the sell token: the bytes carry no such field) becomes a byte corruption of the clean plan.
 */
import { type Address, concat, encodeFunctionData, type Hex, pad, parseAbi, size, slice, toHex } from "viem"
import { DevnetVenue } from "../../../devnet/router.js"
import {
  decodePlan,
  encodeExecute,
  encodePlan,
  Funding,
  type FundingCode,
  routerAbi,
  type RouterPlan,
  type RouterStep,
  SHARE_ALL,
  StepFlag
} from "../../../src/execution/RouterPlan.js"
import { makePlan } from "../support.js"
import type { Edge, World } from "./world.js"

export type Random = () => number

/** mulberry32 */
export const seeded = (seed: number): Random => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
}

const pick = <A>(random: Random, items: ReadonlyArray<A>): A => items[Math.floor(random() * items.length)]!

/** `amount` scaled by a random factor between 10^-lowExp and 10^-highExp. */
const fraction = (random: Random, amount: bigint, lowExp: number, highExp: number) => {
  const exponent = lowExp + random() * (highExp - lowExp)
  const scale = BigInt(Math.floor(10 ** (6 - exponent)))
  return (amount * scale) / 1_000_000n
}

const other = (edge: Edge, token: Address) => (edge.a === token ? edge.b : edge.a)

const stepOf = (edge: Edge, tokenIn: Address, amount: bigint, flags: number): RouterStep => ({
  venue: { v2: DevnetVenue.v2, v3: DevnetVenue.v3, v4: DevnetVenue.v4, curve: DevnetVenue.curve }[edge.venue],
  flags,
  pool: edge.pool,
  tokenIn,
  tokenOut: other(edge, tokenIn),
  fee: edge.fee,
  tickSpacing: edge.tickSpacing,
  hooks: edge.hooks,
  amount,
  limit: 0n
})

export interface Generated {
  /** what `data` executes, read back from it; a plan whose bytes do not read back is sent as the one it
   * was corrupted from (the router must refuse it) */
  readonly plan: RouterPlan
  readonly data: Hex
  readonly value: bigint
  readonly corruption: string | undefined
}

export const generatePlan = (random: Random, world: World, balances: ReadonlyMap<Address, bigint>): Generated => {
  const held = world.tokens.filter((token) => (balances.get(token) ?? 0n) > 0n)
  const sell = pick(random, held)
  const first = pick(random, world.edges.filter((edge) => edge.a === sell || edge.b === sell))
  const hops: Array<Edge> = [first]
  const middle = other(first, sell)
  const onward = world.edges.filter((edge) =>
    edge !== first && (edge.a === middle || edge.b === middle) && other(edge, middle) !== sell
  )
  if (onward.length > 0 && random() < 0.5) hops.push(pick(random, onward))
  const buy = hops.length === 1 ? middle : other(hops[1]!, middle)
  const paths: Array<ReadonlyArray<Edge>> = [hops]
  const direct = world.edges.filter((edge) => edge !== first && other(edge, sell) === buy && edge.a !== edge.b)
    .filter((edge) => edge.a === sell || edge.b === sell)
  if (direct.length > 0 && random() < 0.4) paths.push([pick(random, direct)])

  const balance = balances.get(sell) ?? 0n
  const amountIn = random() < 0.05 ? balance * 2n : fraction(random, balance, 2, 4) + 1n
  const exactOut = paths.length === 1 && random() < 0.25
  const steps: Array<RouterStep> = []
  let left = amountIn
  for (const [i, path] of paths.entries()) {
    const share = i === paths.length - 1 ? left : fraction(random, amountIn, 0, 0.5)
    left -= share
    let tokenIn = sell
    for (const [h, edge] of path.entries()) {
      const last = h === path.length - 1
      const flags = (h === 0 ? 0 : StepFlag.fromRouter) | (last ? 0 : StepFlag.toRouter)
      const amount = h === 0 ? share : random() < 0.8 ? SHARE_ALL : fraction(random, SHARE_ALL, 0, 1)
      steps.push(stepOf(edge, tokenIn, amount, flags))
      tokenIn = other(edge, tokenIn)
    }
  }
  const funding: FundingCode = sell === world.env.usdc && random() < 0.4
    ? Funding.native
    : pick(random, [Funding.approval, Funding.permit2])
  let plan = makePlan({
    sellToken: sell,
    buyToken: buy,
    recipient: world.recipient,
    amountIn,
    funding,
    minAmountOut: random() < 0.1 ? 2n ** 200n : 0n,
    steps
  })
  if (exactOut) {
    const wanted = fraction(random, amountIn, 0, 3) + 1n
    // Two hops run as a chain: the last hop first, asking the first (paid by the taker) for its input.
    const chain = steps.length === 1
      ? [{ ...steps[0]!, flags: StepFlag.exactOut, amount: wanted, limit: amountIn }]
      : [
        { ...steps[1]!, flags: StepFlag.exactOut | StepFlag.fromRouter, amount: wanted, limit: 2n ** 200n },
        { ...steps[0]!, flags: StepFlag.exactOut | StepFlag.toRouter, amount: 0n, limit: amountIn }
      ]
    plan = { ...plan, exactOut: true, minAmountOut: wanted, steps: chain }
  }
  const value = plan.funding === Funding.native ? plan.amountIn * 10n ** 12n : 0n
  if (random() >= 0.2) return { plan, data: encodeExecute(plan), value, corruption: undefined }
  const kind = pick(random, corruptions)
  if (kind in corruptBytes) return fromBytes(random, plan, value, kind as keyof typeof corruptBytes)
  const corrupted = corrupt[kind as keyof typeof corrupt](random, world, plan)
  try {
    return { plan: corrupted, data: encodeExecute(corrupted), value, corruption: kind }
  } catch {
    // The encoding cannot say it (an implied token, a link's output): change the clean plan's bytes instead.
    return fromBytes(random, plan, value, pick(random, byteCorruptions))
  }
}

const fromBytes = (random: Random, clean: RouterPlan, value: bigint, kind: keyof typeof corruptBytes): Generated => {
  const bytes = corruptBytes[kind](random, encodePlan(clean))
  const data = encodeFunctionData({ abi: routerAbi, functionName: "execute", args: [bytes] })
  let plan = clean
  try {
    plan = decodePlan(bytes)
  } catch {
    // not a plan: the router must refuse it, and a refused plan changes nothing
  }
  return { plan, data, value, corruption: kind }
}

const corruptBytes = {
  truncated: (random: Random, bytes: Hex): Hex => {
    const length = Math.floor(random() * size(bytes))
    return length === 0 ? "0x" : slice(bytes, 0, length)
  },
  trailing: (random: Random, bytes: Hex): Hex => concat([bytes, toHex(Math.floor(random() * 256), { size: 1 })]),
  // Not a byte of the recipient (offsets 79-98): the invariants watch the world's one recipient.
  changedByte: (random: Random, bytes: Hex): Hex => {
    const pickAt = Math.floor(random() * (size(bytes) - 20))
    const at = pickAt < 79 ? pickAt : pickAt + 20
    const byte = Math.floor(random() * 256)
    return concat([
      slice(bytes, 0, at),
      toHex(byte, { size: 1 }),
      ...(at + 1 < size(bytes) ? [slice(bytes, at + 1)] : [])
    ])
  }
} as const
const byteCorruptions = Object.keys(corruptBytes) as ReadonlyArray<keyof typeof corruptBytes>

const withStep = (plan: RouterPlan, random: Random, change: (step: RouterStep) => RouterStep): RouterPlan => {
  const index = Math.floor(random() * plan.steps.length)
  return { ...plan, steps: plan.steps.map((step, i) => (i === index ? change(step) : step)) }
}

const corrupt = {
  forgedPool: (random: Random, world: World, plan: RouterPlan) =>
    withStep(plan, random, (step) => ({ ...step, pool: world.hostile.fakePool })),
  recipientIsPool: (random: Random, world: World, plan: RouterPlan) => ({
    ...plan,
    recipient: pick(random, [world.env.router, ...plan.steps.map((step) => step.pool)])
  }),
  flags: (random: Random, _world: World, plan: RouterPlan) =>
    withStep(plan, random, (step) => ({ ...step, flags: Math.floor(random() * 8) })),
  tokenIn: (random: Random, world: World, plan: RouterPlan) =>
    withStep(plan, random, (step) => ({ ...step, tokenIn: pick(random, world.tokens) })),
  stolenShare: (random: Random, world: World, plan: RouterPlan) => ({
    ...plan,
    steps: [...plan.steps, {
      ...plan.steps[0]!,
      flags: StepFlag.fromRouter,
      tokenIn: pick(random, world.tokens),
      amount: SHARE_ALL + BigInt(Math.floor(random() * 3))
    }]
  }),
  expired: (_random: Random, _world: World, plan: RouterPlan) => ({ ...plan, deadline: 1n }),
  fee: (random: Random, _world: World, plan: RouterPlan) =>
    withStep(plan, random, (step) => ({ ...step, fee: step.fee + 1 }))
} as const

const corruptions: ReadonlyArray<string> = [...Object.keys(corrupt), ...byteCorruptions]

/** What a hostile token or hook tries when it gets control: re-enter to steal, or forge a callback. */
export const attackCalldata = (random: Random, world: World) => {
  const token = pick(random, world.tokens)
  const edge = pick(random, world.edges.filter((e) => e.a === token || e.b === token))
  const theft = makePlan({
    sellToken: token,
    buyToken: other(edge, token),
    recipient: world.thief,
    amountIn: 0n,
    exactOut: true,
    steps: [stepOf(edge, token, SHARE_ALL, StepFlag.fromRouter)]
  })
  // The router's own callback data for a taker-paid step: the input token in one word.
  const forgedData = pad(token)
  return pick(random, [
    encodeExecute(theft),
    encodeFunctionData({
      abi: parseAbi(["function uniswapV3SwapCallback(int256, int256, bytes)"]),
      functionName: "uniswapV3SwapCallback",
      args: [BigInt(Math.floor(random() * 1e9)), BigInt(Math.floor(random() * 1e9)), forgedData]
    }),
    encodeFunctionData({
      abi: parseAbi(["function unlockCallback(bytes) returns (bytes)"]),
      functionName: "unlockCallback",
      args: [forgedData]
    })
  ])
}
