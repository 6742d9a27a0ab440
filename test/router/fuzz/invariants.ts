/**
 * The router's invariants, checked after every fuzzed plan: the router holds nothing; victims, the thief
 * and the re-entering contracts are untouched; fee takers (the tax treasury, a fee-taking hook) only
 * gain; the recipient gained only the buy token, exactly what the event says; the caller lost at most
 * the plan's amountIn; each v2/v3 pool changed by exactly its own Swap events; and nothing left the
 * watched set (per token, the watched balances moved by exactly the change in total supply). A plan
 * that reverts must change nothing at all.
 *
 * The checks and the loop that applies them stay together, which makes this file a little long.
 * Longer than most: each invariant reads the same before/after balance sheet, so they stay together.
 */
import {
  type Address,
  decodeErrorResult,
  erc20Abi,
  type Hex,
  parseAbi,
  parseEventLogs,
  type TransactionReceipt
} from "viem"
import { roles } from "../../../devnet/accounts.js"
import { Funding, planExecutedIn, routerAbi, type RouterPlan } from "../../../src/execution/RouterPlan.js"
import { reentrantAbi } from "../fixtures.js"
import { attackCalldata, generatePlan, type Random, seeded } from "./plans.js"
import type { World } from "./world.js"

const poolEvents = parseAbi([
  "event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)",
  "event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)"
])
const pairAbi = parseAbi(["function token0() view returns (address)", "function token1() view returns (address)"])

interface Snapshot {
  readonly balance: (token: Address, holder: Address) => bigint
  readonly supply: ReadonlyMap<Address, bigint>
  readonly native: ReadonlyMap<Address, bigint>
  readonly successes: bigint
}

const snapshot = async (world: World): Promise<Snapshot> => {
  const { reader, tokens, watched } = world
  const read = (address: Address, functionName: "balanceOf" | "totalSupply", args: ReadonlyArray<Address> = []) =>
    reader.readContract({ address, abi: erc20Abi, functionName, args } as never) as Promise<bigint>
  const balances = await Promise.all(
    tokens.flatMap((token) => watched.map((holder) => read(token, "balanceOf", [holder])))
  )
  const supplies = await Promise.all(tokens.map((token) => read(token, "totalSupply")))
  const nativeHolders = [world.env.router, ...world.victims.map((victim) => victim.address)]
  const natives = await Promise.all(nativeHolders.map((address) => reader.getBalance({ address })))
  const successes = await Promise.all(
    [world.hostile.evil, world.hostile.reentrantHook].map((address) =>
      reader.readContract({ address, abi: reentrantAbi, functionName: "successes" })
    )
  )
  const index = new Map(watched.map((holder, i) => [holder, i]))
  return {
    balance: (token, holder) => balances[tokens.indexOf(token) * watched.length + index.get(holder)!]!,
    supply: new Map(tokens.map((token, i) => [token, supplies[i]!])),
    native: new Map(nativeHolders.map((holder, i) => [holder, natives[i]!])),
    successes: successes.reduce((a, b) => a + b, 0n)
  }
}

type Tokens0And1 = ReadonlyMap<Address, readonly [Address, Address]>

/** Each v2/v3 pool's balance change as its own Swap events report it. */
const eventDeltas = (world: World, receipt: TransactionReceipt, poolTokens: Tokens0And1) => {
  const deltas = new Map<string, bigint>()
  const add = (token: Address, pool: Address, amount: bigint) =>
    deltas.set(`${token}:${pool}`, (deltas.get(`${token}:${pool}`) ?? 0n) + amount)
  for (const log of parseEventLogs({ abi: poolEvents, eventName: "Swap", logs: receipt.logs })) {
    const pool = world.pools.find((p) => p.address.toLowerCase() === log.address.toLowerCase())
    if (pool === undefined) continue
    const [token0, token1] = poolTokens.get(pool.address)!
    if ("amount0In" in log.args) {
      add(token0, pool.address, log.args.amount0In - log.args.amount0Out)
      add(token1, pool.address, log.args.amount1In - log.args.amount1Out)
    } else {
      add(token0, pool.address, log.args.amount0)
      add(token1, pool.address, log.args.amount1)
    }
  }
  return deltas
}

const check = (
  world: World,
  plan: RouterPlan,
  before: Snapshot,
  after: Snapshot,
  receipt: TransactionReceipt,
  poolTokens: Tokens0And1
) => {
  const fail = (what: string) => {
    throw new Error(`invariant broken: ${what}`)
  }
  const success = receipt.status === "success"
  const event = success
    ? planExecutedIn(world.env.router, receipt.logs)
    : undefined
  if (success && event === undefined) fail("an execution without its PlanExecuted event")
  const swaps = success ? eventDeltas(world, receipt, poolTokens) : new Map<string, bigint>()
  // A hook's return delta is part of its pool's swap math: a fee-taking hook, like the tax treasury,
  // may only gain. Everyone else who is not a party to the trade must not move at all.
  const feeTakers = new Set([roles().treasury.address, world.hostile.greedyPool.key.hooks])
  const untouched = new Set([
    world.thief,
    world.hostile.evil,
    world.hostile.fakePool,
    world.hostile.reentrantHook,
    ...world.victims.map((v) => v.address)
  ])
  for (const token of world.tokens) {
    let moved = 0n
    for (const holder of world.watched) {
      const delta = after.balance(token, holder) - before.balance(token, holder)
      moved += delta
      if (!success && delta !== 0n) fail(`a reverted plan moved ${token} of ${holder}`)
      if (untouched.has(holder) && delta !== 0n) fail(`${holder} (not a party) changed by ${delta} ${token}`)
      if (feeTakers.has(holder) && delta < 0n) fail(`fee taker ${holder} lost ${-delta} ${token}`)
      if (holder === world.env.router && after.balance(token, holder) !== 0n) fail(`the router holds ${token}`)
      if (holder === world.recipient && token !== plan.buyToken && delta !== 0n) fail(`the recipient got ${token}`)
      if (holder === world.recipient && token === plan.buyToken && event !== undefined && delta !== event.amountOut) {
        fail(`the recipient got ${delta}, the event says ${event.amountOut}`)
      }
      if (holder === world.caller.address && token === plan.sellToken && -delta > plan.amountIn) {
        fail(`the caller paid ${-delta} > ${plan.amountIn}`)
      }
      // What the caller spent: its ERC-20 sell token's fall, plus the native deposit its refund came out of.
      const spent = (plan.funding === Funding.native ? plan.amountIn : 0n) - delta
      if (
        holder === world.caller.address && token === plan.sellToken && event !== undefined && spent !== event.amountIn
      ) {
        fail(`the caller spent ${spent}, the event says ${event.amountIn}`)
      }
      const pool = world.pools.find((p) => p.address === holder)
      if (pool !== undefined && delta !== (swaps.get(`${token}:${holder}`) ?? 0n)) {
        fail(`pool ${holder} moved ${delta} ${token}, its Swap events say ${swaps.get(`${token}:${holder}`) ?? 0n}`)
      }
    }
    const minted = after.supply.get(token)! - before.supply.get(token)!
    if (moved !== minted) fail(`${moved - minted} ${token} left the watched set`)
  }
  for (const [holder, value] of after.native) {
    if (value !== before.native.get(holder)) fail(`native balance of ${holder} changed`)
  }
  if (after.successes !== before.successes) fail("a re-entry or forged callback got through")
}

export interface FuzzStats {
  readonly plans: number
  readonly executed: number
  readonly refused: Readonly<Record<string, number>>
  readonly corruptedExecuted: number
}

const errorName = (data: Hex | undefined) => {
  if (data === undefined) return "unknown"
  try {
    return decodeErrorResult({ abi: routerAbi, data }).errorName
  } catch {
    return data.slice(0, 10)
  }
}

const revertData = (error: unknown): Hex | undefined => {
  for (
    let current = error as { data?: unknown; cause?: unknown } | undefined;
    current !== undefined;
    current = current.cause as never
  ) {
    if (typeof current.data === "string") return current.data as Hex
    if (current.cause === undefined || current.cause === null) return undefined
  }
  return undefined
}

/** `runs` random plans from `seed`; throws with the seed, run and plan on the first broken invariant. */
export const runFuzz = async (world: World, runs: number, seed: number): Promise<FuzzStats> => {
  const random: Random = seeded(seed)
  const lp = world.env.trader(7)
  const refused: Record<string, number> = {}
  const poolTokens = new Map(
    await Promise.all(world.pools.map(async (pool) => {
      const read = (functionName: "token0" | "token1") =>
        world.reader.readContract({ address: pool.address, abi: pairAbi, functionName })
      return [pool.address, [await read("token0"), await read("token1")] as const] as const
    }))
  )
  let executed = 0
  let corruptedExecuted = 0
  for (let run = 0; run < runs; run++) {
    if (run % 5 === 0) {
      for (const target of [world.hostile.evil, world.hostile.reentrantHook]) {
        await lp.write(target, reentrantAbi, "arm", [world.env.router, attackCalldata(random, world)])
      }
    }
    const before = await snapshot(world)
    const balances = new Map(world.tokens.map((token) => [token, before.balance(token, world.caller.address)]))
    const { plan, data, value, corruption } = generatePlan(random, world, balances)
    try {
      await world.reader.call({ account: world.caller.address, to: world.env.router, data, value })
    } catch (error) {
      const name = errorName(revertData(error))
      refused[name] = (refused[name] ?? 0) + 1
      continue
    }
    const hash = await world.caller.wallet.sendTransaction({
      account: world.caller.account,
      chain: world.caller.chain,
      to: world.env.router,
      data,
      value,
      gas: 5_000_000n
    })
    const receipt = await world.reader.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    const after = await snapshot(world)
    try {
      check(world, plan, before, after, receipt, poolTokens)
    } catch (error) {
      const json = JSON.stringify(plan, (_, v) => (typeof v === "bigint" ? v.toString() : v))
      throw new Error(`seed ${seed} run ${run}: ${(error as Error).message}\nplan ${json}`)
    }
    if (receipt.status === "success") {
      executed++
      if (corruption !== undefined) corruptedExecuted++
    }
  }
  return { plans: runs, executed, refused, corruptedExecuted }
}
