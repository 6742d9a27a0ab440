/**
 * The fuzzed world: the pools a random plan may route through (seeded ones and the hostile fixtures),
 * the caller that sends plans, victims that trust the router with everything, and the addresses whose
 * balances the invariants watch.
 */
import {
  type Address,
  createPublicClient,
  getAddress,
  http,
  maxUint256,
  parseAbi,
  type PublicClient,
  zeroAddress
} from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { roles } from "../../../devnet/accounts.js"
import { contractAddress, poolByLabel } from "../../support/devnet.js"
import type { Wallet } from "../../support/wallet.js"
import type { Hostile } from "../fixtures.js"
import { DYNAMIC_FEE, type Env } from "../support.js"

export interface Edge {
  readonly label: string
  readonly venue: "v2" | "v3" | "v4" | "curve"
  readonly a: Address
  readonly b: Address
  /** pair, pool, PoolManager or launchpad: what the step names */
  readonly pool: Address
  readonly fee: number
  readonly tickSpacing: number
  readonly hooks: Address
}

export interface World {
  readonly env: Env
  readonly hostile: Hostile
  readonly caller: Wallet
  readonly recipient: Address
  /** where a re-entry's theft would send its loot */
  readonly thief: Address
  readonly victims: ReadonlyArray<Wallet>
  readonly tokens: ReadonlyArray<Address>
  readonly edges: ReadonlyArray<Edge>
  /** v2 pairs and v3 pools, whose balance changes must equal their own Swap events */
  readonly pools: ReadonlyArray<{ readonly address: Address; readonly kind: "v2" | "v3" }>
  /** every address whose balances are read: the invariants account for each of them */
  readonly watched: ReadonlyArray<Address>
  /** JSON-RPC batching: a snapshot is a few hundred reads */
  readonly reader: PublicClient
}

const permit2Abi = parseAbi(["function approve(address token, address spender, uint160 amount, uint48 expiration)"])

const seeded: ReadonlyArray<string> = [
  "v2:WETH/USDC",
  "v2:WBTC/USDC",
  "v2:DEGEN/WETH",
  "v2:TAX/USDC",
  "v3:WETH/USDC:500",
  "v3:WBTC/USDC:3000",
  "v4:WETH/USDC:500",
  "v4:BLOOM/USDC:3000:swapFeeHook"
]

/** Lets `wallet` fund plans every way: approvals to the router and to Permit2, and a Permit2 allowance. */
export const trustRouter = async (env: Env, wallet: Wallet, tokens: ReadonlyArray<Address>) => {
  const permit2 = contractAddress(env.manifest, "permit2")
  for (const token of tokens) {
    await wallet.approve(token, env.router, maxUint256)
    await wallet.approve(token, permit2, maxUint256)
    await wallet.write(permit2, permit2Abi, "approve", [token, env.router, 2n ** 160n - 1n, 2 ** 47])
  }
}

export const buildWorld = async (env: Env, hostile: Hostile, lp: Wallet): Promise<World> => {
  const manager = contractAddress(env.manifest, "v4PoolManager")
  const launchpad = contractAddress(env.manifest, "launchpad")
  const edges: Array<Edge> = seeded.map((label) => {
    const pool = poolByLabel(env.manifest, label)
    return {
      label,
      venue: pool.venue,
      a: getAddress(pool.token0),
      b: getAddress(pool.token1),
      pool: getAddress(pool.address),
      fee: pool.venue === "v2" ? 0 : pool.fee ?? DYNAMIC_FEE,
      tickSpacing: pool.tickSpacing ?? 0,
      hooks: getAddress(pool.hooks ?? zeroAddress)
    }
  })
  const usdc = env.usdc
  const weth = env.token("WETH")
  const plain = { fee: 0, tickSpacing: 0, hooks: zeroAddress }
  edges.push(
    { label: "v2:EVIL/USDC", venue: "v2", a: hostile.evil, b: usdc, pool: hostile.evilUsdcPair, ...plain },
    { label: "v2:EVIL/WETH", venue: "v2", a: hostile.evil, b: weth, pool: hostile.evilWethPair, ...plain },
    { label: "v3:EVIL/USDC", venue: "v3", a: hostile.evil, b: usdc, pool: hostile.evilUsdcV3, ...plain, fee: 3000 },
    ...[["v4:reentrant", hostile.reentrantPool], ["v4:greedy", hostile.greedyPool]].map(([label, p]) => {
      const { key } = p as Hostile["reentrantPool"]
      return {
        label: label as string,
        venue: "v4" as const,
        a: key.currency0,
        b: key.currency1,
        pool: manager,
        fee: key.fee,
        tickSpacing: key.tickSpacing,
        hooks: key.hooks
      }
    }),
    { label: "curve:LAUNCH_CURVE", venue: "curve", a: env.token("LAUNCH_CURVE"), b: usdc, pool: launchpad, ...plain }
  )
  const tokens = [...new Set(edges.flatMap((edge) => [edge.a, edge.b]))]
  const caller = env.trader(1)
  await lp.transfer(hostile.evil, caller.address, 10n ** 24n)
  await trustRouter(env, caller, tokens)
  const victims = [env.trader(2), env.trader(3)]
  for (const victim of victims) await trustRouter(env, victim, tokens)

  const pools = edges.filter((edge) => edge.venue === "v2" || edge.venue === "v3").map((edge) => ({
    address: edge.pool,
    kind: edge.venue as "v2" | "v3"
  }))
  const recipient = privateKeyToAccount(generatePrivateKey()).address
  const thief = privateKeyToAccount(generatePrivateKey()).address
  const watched = [
    caller.address,
    recipient,
    thief,
    ...victims.map((victim) => victim.address),
    env.router,
    roles().treasury.address,
    manager,
    launchpad,
    hostile.evil,
    hostile.fakePool,
    hostile.reentrantHook,
    hostile.greedyPool.key.hooks,
    ...pools.map((pool) => pool.address)
  ].map((address) => getAddress(address))
  const reader = createPublicClient({ transport: http(env.manifest.rpcUrl, { batch: { batchSize: 1_000 } }) })
  return {
    env,
    hostile,
    caller,
    recipient,
    thief,
    victims,
    tokens,
    edges,
    pools,
    watched: [...new Set(watched)],
    reader: reader as PublicClient
  }
}
