/**
 * A generated market of new venues, deployed on a private devnet from the protocols' own bytecode (issue
 * 34's acceptance: 10–20 venues of the three families, random depths and fees, a cheap shallow pool among
 * deep ones, shared hub pools). Each new venue is a Uniswap v2 factory (0.3 %, or the devnet's 0.2 % fork),
 * a Uniswap v3 factory with its position manager, or a v4 PoolManager with its helpers, deployed again;
 * each holds a USDC/WETH pool of seeded depth, fee, price (±0.4 %) and, for concentrated pools, range; one
 * of them is shallow and 1–2 % cheaper; two or three also hold USDC/WBTC and WBTC/WETH, the first of them
 * a deep USDC/WBTC pool with WBTC a little cheap, so two-hop paths through it share that pool. Returns
 * the venue file grown by them (the devnet's own venues first) and a router deployed for it.
 */
import { Schema } from "effect"
import { type Address, keccak256, maxUint256, parseAbi, parseUnits, zeroAddress } from "viem"
import { loadArtifact } from "../../devnet/Artifacts.js"
import { npmArtifact } from "../../devnet/npmArtifacts.js"
import { fullRange, liquidityFor, rangeAround, sqrtPriceX96For } from "../../devnet/priceMath.js"
import { NativeMode, routerConfigOf } from "../../devnet/router.js"
import type { Manifest } from "../../schema/Manifest.js"
import { VenueFile } from "../../schema/VenueFile.js"
import { deploy } from "../router/fixtures.js"
import type { Wallet } from "../support/wallet.js"
import { seeded } from "./venueMarket.js"

type Family = "v2" | "v3" | "v4"

interface PoolSpec {
  /** Base units of each side. */
  readonly a: Address
  readonly b: Address
  readonly amountA: bigint
  readonly amountB: bigint
  /** ± this many % around the price, or full range; v3 and v4 only. */
  readonly range: number | null
}

interface VenueSpec {
  readonly family: Family
  /** v2: 3000 (Uniswap's) or 2000 (the fork); v3: a default tier; v4: any fee in pips. */
  readonly fee: number
  readonly tickSpacing: number
  readonly pools: ReadonlyArray<PoolSpec>
}

export interface Tokens {
  readonly USDC: Address
  readonly WETH: Address
  readonly WBTC: Address
}

const E6 = 10n ** 6n
const E8 = 10n ** 8n
const E18 = 10n ** 18n
const V3_TIERS = [[500, 10], [3000, 60], [10_000, 200]] as const
const V4_FEES = [[100, 1], [400, 8], [2500, 50], [3000, 60], [7000, 140]] as const

/**
 * The seeded venues: `added` new ones (8 + `added` in the file), every family present, one USDC/WETH
 * pool shallow and cheaper, and 2–3 holders of the hub pairs.
 */
export const generateVenues = (seed: number, added: number, tokens: Tokens): ReadonlyArray<VenueSpec> => {
  const next = seeded(seed)
  const families: ReadonlyArray<Family> = ["v2", "v3", "v4"]
  const cheap = Math.floor(next() * added)
  const holders = 2 + Math.floor(next() * 2)
  /** `usd` dollars a side at 3,000 USDC per WETH, 60,000 per WBTC, times `skew`, rounded to base units. */
  const side = (usd: number, perToken: number, skew: number, unit: bigint) =>
    (BigInt(Math.round((usd / perToken / skew) * 1e6)) * unit) / 1_000_000n
  return Array.from({ length: added }, (_, v): VenueSpec => {
    const family = families[(v + seed) % 3]!
    const [fee, tickSpacing] = family === "v2"
      ? [next() < 0.3 ? 2000 : 3000, 0]
      : family === "v3"
      ? V3_TIERS[Math.floor(next() * V3_TIERS.length)]!
      : V4_FEES[Math.floor(next() * V4_FEES.length)]!
    const shallow = v === cheap
    // WETH 1–2 % cheaper in the shallow pool; within ±0.4 % of 3,000 USDC elsewhere.
    const skew = shallow ? 0.98 - next() * 0.01 : 1 + (next() - 0.5) * 8e-3
    const usd = shallow ? 15_000 + next() * 60_000 : 60_000 + next() * 1_400_000
    const range = family === "v2" || next() < 0.4 ? null : 1 + next() * 5
    const direct = {
      a: tokens.USDC,
      b: tokens.WETH,
      amountA: BigInt(Math.round(usd)) * E6,
      amountB: side(usd, 3000, skew, E18),
      range
    }
    if (v >= holders) return { family, fee, tickSpacing, pools: [direct] }
    // The first holder's USDC/WBTC pool is deep and sells WBTC 0.5 % cheap: paths through it share it.
    const hubUsd = v === 0 ? 2_000_000 : 150_000 + next() * 800_000
    const hubSkew = v === 0 ? 0.995 : 1 + (next() - 0.5) * 8e-3
    return {
      family,
      fee,
      tickSpacing,
      pools: [
        direct,
        {
          a: tokens.USDC,
          b: tokens.WBTC,
          amountA: BigInt(Math.round(hubUsd)) * E6,
          amountB: side(hubUsd, 60_000, hubSkew, E8),
          range: null
        },
        {
          a: tokens.WBTC,
          b: tokens.WETH,
          amountA: side(hubUsd / 2, 60_000, 1, E8),
          amountB: side(hubUsd / 2, 3000, 1 + (next() - 0.5) * 8e-3, E18),
          range: null
        }
      ]
    }
  })
}

const pairAbi = parseAbi(["function mint(address to) returns (uint256)"])

const sortedOf = (pool: PoolSpec) =>
  pool.a.toLowerCase() < pool.b.toLowerCase()
    ? { token0: pool.a, token1: pool.b, amount0: pool.amountA, amount1: pool.amountB }
    : { token0: pool.b, token1: pool.a, amount0: pool.amountB, amount1: pool.amountA }

const ticksOf = (pool: PoolSpec, sqrtPriceX96: bigint, spacing: number) =>
  pool.range === null ? fullRange(spacing) : rangeAround(sqrtPriceX96, pool.range, spacing)

const v2Venue = async (lp: Wallet, id: string, spec: VenueSpec) => {
  const [factoryName, pairName] = spec.fee === 2000
    ? ["UniswapV2Fork20Factory", "UniswapV2Fork20Pair"] as const
    : ["UniswapV2Factory", "UniswapV2Pair"] as const
  const factoryAbi = loadArtifact("UniswapV2Factory").abi
  const factory = await deploy(lp, loadArtifact(factoryName), [lp.address])
  for (const pool of spec.pools) {
    await lp.write(factory, factoryAbi, "createPair", [pool.a, pool.b])
    const pair = (await lp.public.readContract({
      address: factory,
      abi: factoryAbi,
      functionName: "getPair",
      args: [pool.a, pool.b]
    })) as Address
    await lp.transfer(pool.a, pair, pool.amountA)
    await lp.transfer(pool.b, pair, pool.amountB)
    await lp.write(pair, pairAbi, "mint", [lp.address])
  }
  return {
    id,
    name: `Generated v2 venue ${id}`,
    family: "v2" as const,
    factory,
    pairInitCodeHash: keccak256(loadArtifact(pairName).bytecode),
    fee: { fixed: spec.fee }
  }
}

const v3Venue = async (lp: Wallet, id: string, spec: VenueSpec, tokens: Tokens) => {
  const factory = await deploy(lp, loadArtifact("UniswapV3Factory"), [])
  const positions = await deploy(lp, loadArtifact("NonfungiblePositionManager"), [factory, tokens.WETH, zeroAddress])
  for (const token of Object.values(tokens)) await lp.approve(token, positions, maxUint256)
  const positionsAbi = loadArtifact("NonfungiblePositionManager").abi
  for (const pool of spec.pools) {
    const { amount0, amount1, token0, token1 } = sortedOf(pool)
    const sqrtPriceX96 = sqrtPriceX96For(amount0, amount1)
    await lp.write(positions, positionsAbi, "createAndInitializePoolIfNecessary", [
      token0,
      token1,
      spec.fee,
      sqrtPriceX96
    ])
    const [tickLower, tickUpper] = ticksOf(pool, sqrtPriceX96, spec.tickSpacing)
    await lp.write(positions, positionsAbi, "mint", [{
      token0,
      token1,
      fee: spec.fee,
      tickLower,
      tickUpper,
      amount0Desired: amount0,
      amount1Desired: amount1,
      amount0Min: 0n,
      amount1Min: 0n,
      recipient: lp.address,
      deadline: maxUint256
    }])
  }
  return {
    id,
    name: `Generated v3 venue ${id}`,
    family: "v3" as const,
    factory,
    poolInitCodeHash: keccak256(loadArtifact("UniswapV3Pool").bytecode),
    feeTiers: V3_TIERS.map(([fee, tickSpacing]) => ({ fee, tickSpacing }))
  }
}

const v4Venue = async (lp: Wallet, id: string, spec: VenueSpec, tokens: Tokens) => {
  const poolManager = await deploy(lp, loadArtifact("PoolManager"), [lp.address])
  const helper = await deploy(lp, loadArtifact("PoolModifyLiquidityTest"), [poolManager])
  const quoter = await deploy(lp, npmArtifact("v4Quoter"), [poolManager])
  const stateView = await deploy(lp, npmArtifact("v4StateView"), [poolManager])
  for (const token of Object.values(tokens)) await lp.approve(token, helper, maxUint256)
  for (const pool of spec.pools) {
    const { amount0, amount1, token0, token1 } = sortedOf(pool)
    const key = {
      currency0: token0,
      currency1: token1,
      fee: spec.fee,
      tickSpacing: spec.tickSpacing,
      hooks: zeroAddress
    }
    const sqrtPriceX96 = sqrtPriceX96For(amount0, amount1)
    await lp.write(poolManager, loadArtifact("PoolManager").abi, "initialize", [key, sqrtPriceX96])
    const ticks = ticksOf(pool, sqrtPriceX96, spec.tickSpacing)
    const params = {
      tickLower: ticks[0],
      tickUpper: ticks[1],
      liquidityDelta: liquidityFor(sqrtPriceX96, ticks, amount0, amount1),
      salt: `0x${"00".repeat(32)}`
    }
    await lp.write(helper, loadArtifact("PoolModifyLiquidityTest").abi, "modifyLiquidity", [key, params, "0x"])
  }
  return { id, name: `Generated v4 venue ${id}`, family: "v4" as const, poolManager, stateView, quoter }
}

/** Deploys the venues, then a router for the devnet's file grown by them; the manifest to start a service on. */
export const deployVenues = async (
  lp: Wallet,
  manifest: Manifest,
  prefix: string,
  specs: ReadonlyArray<VenueSpec>,
  tokens: Tokens
) => {
  const entries = []
  for (const [v, spec] of specs.entries()) {
    const id = `${prefix}-${spec.family}-${v + 1}`
    entries.push(
      spec.family === "v2"
        ? await v2Venue(lp, id, spec)
        : spec.family === "v3"
        ? await v3Venue(lp, id, spec, tokens)
        : await v4Venue(lp, id, spec, tokens)
    )
  }
  const devnetFile = manifest.venues!
  const file = Schema.decodeUnknownSync(VenueFile)({ ...devnetFile, venues: [...devnetFile.venues, ...entries] })
  const router = await deploy(lp, loadArtifact("TradeRouter"), [routerConfigOf(file, tokens.USDC, NativeMode.deposit)])
  return {
    file,
    manifest: { ...manifest, venues: { ...file, router }, contracts: { ...manifest.contracts, router } } as Manifest
  }
}

/** Enough of each token for a market of 20 venues at the depths above. */
export const fundsNeeded = { usdc: parseUnits("30000000", 6), weth: parseUnits("8000", 18), wbtc: parseUnits("200", 8) }
