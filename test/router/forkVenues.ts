/**
 * Forked venues for the router's venue-table tests, deployed with viem on a private devnet beside the
 * canonical ones: a Uniswap v2 fork that charges 0.2 % (its own pair init code hash; built by
 * scripts/compile-v2-fork.ts), a second Uniswap v3 factory with an extra 0.02 % fee tier (tick spacing
 * 4) and its own position manager and QuoterV2, and factories the router is never deployed for (a
 * canonical v2 and a canonical v3 factory), each with a real USDC/WETH pool. Then a router deployed for a
 * venue file of all of them, in file order, including v2 entries whose fee rule disagrees with what
 * their pairs charge (the router must apply the rule, and the pair's own K check bounds it).
 */
import { Schema } from "effect"
import { type Address, getAddress, keccak256, maxUint256, parseUnits, zeroAddress } from "viem"
import { loadArtifact } from "../../devnet/Artifacts.js"
import { npmArtifact } from "../../devnet/npmArtifacts.js"
import type { Protocol } from "../../devnet/protocol.js"
import { NativeMode, routerConfigOf } from "../../devnet/router.js"
import { devnetVenueFile } from "../../devnet/venues.js"
import { VenueFile } from "../../schema/VenueFile.js"
import { sqrt } from "../../src/math/FullMath.js"
import { contractAddress } from "../support/devnet.js"
import type { Wallet } from "../support/wallet.js"
import { deploy, v3PoolAt } from "./fixtures.js"
import type { Env } from "./support.js"

export interface Forks {
  readonly file: VenueFile
  readonly router: Address
  /** venue id -> index in the router's table */
  readonly index: (id: string) => number
  readonly fork20Pair: Address
  readonly uniswapPair: Address
  readonly strayV2Pair: Address
  readonly secondV3Pool: Address
  readonly secondV3Quoter: Address
  readonly strayV3Pool: Address
  readonly strayV3Factory: Address
}

const FULL_RANGE = { tickLower: -887_200, tickUpper: 887_200 }

/** A USDC/WETH v2 pair of `factory` holding 15 000 USDC and 5 WETH. */
const v2Pair = async (lp: Wallet, factory: Address, usdc: Address, weth: Address) => {
  const abi = loadArtifact("UniswapV2Factory").abi
  await lp.write(factory, abi, "createPair", [usdc, weth])
  const pair = getAddress(
    (await lp.public.readContract({ address: factory, abi, functionName: "getPair", args: [usdc, weth] })) as Address
  )
  await lp.transfer(usdc, pair, parseUnits("15000", 6))
  await lp.transfer(weth, pair, parseUnits("5", 18))
  await lp.write(pair, loadArtifact("UniswapV2Pair").abi, "mint", [lp.address])
  return pair
}

/** The second v3 venue: its own factory with the 0.02 % tier, a USDC/WETH pool there, its QuoterV2. */
const secondV3 = async (lp: Wallet, usdc: Address, weth: Address) => {
  const factoryAbi = loadArtifact("UniswapV3Factory").abi
  const factory = await deploy(lp, loadArtifact("UniswapV3Factory"), [])
  await lp.write(factory, factoryAbi, "enableFeeAmount", [200, 4])
  const positions = await deploy(lp, loadArtifact("NonfungiblePositionManager"), [factory, usdc, zeroAddress])
  const quoter = await deploy(lp, npmArtifact("v3Quoter"), [factory, usdc])
  for (const token of [usdc, weth]) await lp.approve(token, positions, maxUint256)
  const [token0, token1] = usdc.toLowerCase() < weth.toLowerCase() ? [usdc, weth] : [weth, usdc]
  const amount = (token: Address) => (token === usdc ? parseUnits("15000", 6) : parseUnits("5", 18))
  const positionsAbi = loadArtifact("NonfungiblePositionManager").abi
  await lp.write(positions, positionsAbi, "createAndInitializePoolIfNecessary", [
    token0,
    token1,
    200,
    sqrt((amount(token1) << 192n) / amount(token0))
  ])
  await lp.write(positions, positionsAbi, "mint", [{
    token0,
    token1,
    fee: 200,
    ...FULL_RANGE,
    amount0Desired: amount(token0),
    amount1Desired: amount(token1),
    amount0Min: 0n,
    amount1Min: 0n,
    recipient: lp.address,
    deadline: maxUint256
  }])
  return { factory, pool: await v3PoolAt(lp, factory, usdc, weth, 200), quoter }
}

export const deployForks = async (env: Env, lp: Wallet): Promise<Forks> => {
  const usdc = env.usdc
  const weth = env.token("WETH")
  const fork20Factory = await deploy(lp, loadArtifact("UniswapV2Fork20Factory"), [lp.address])
  const fork20Pair = await v2Pair(lp, fork20Factory, usdc, weth)
  const strayV2Pair = await v2Pair(lp, await deploy(lp, loadArtifact("UniswapV2Factory"), [lp.address]), usdc, weth)
  const second = await secondV3(lp, usdc, weth)
  const strayV3Factory = await deploy(lp, loadArtifact("UniswapV3Factory"), [])
  await lp.write(strayV3Factory, loadArtifact("UniswapV3Factory").abi, "createPool", [usdc, weth, 3000])
  const strayV3Pool = await v3PoolAt(lp, strayV3Factory, usdc, weth, 3000)

  const devnet = devnetVenueFile(env.manifest.contracts as unknown as Protocol, env.manifest.chainId)
  const uniswapV2 = devnet.venues[0]
  if (uniswapV2.family !== "v2") throw new Error("the devnet's first venue is not uniswap-v2")
  const fork20 = {
    id: "fork20-v2",
    name: "Uniswap v2 fork at 0.2 %",
    family: "v2" as const,
    factory: fork20Factory,
    pairInitCodeHash: keccak256(loadArtifact("UniswapV2Fork20Pair").bytecode),
    fee: { fixed: 2000 }
  }
  // `decimals()` returns 18 on every v2 pair: out of 9 000 it reads as 0.2 %, out of 18 as 100 %.
  const perPair = (denominator: number, getter = "decimals()") => ({ perPair: { getter, denominator } })
  const file = Schema.decodeUnknownSync(VenueFile)({
    ...devnet,
    venues: [
      ...devnet.venues,
      fork20,
      {
        id: "second-v3",
        name: "Uniswap v3 fork with a 0.02 % tier",
        family: "v3",
        factory: second.factory,
        poolInitCodeHash: keccak256(loadArtifact("UniswapV3Pool").bytecode),
        feeTiers: [{ fee: 200, tickSpacing: 4 }, { fee: 3000, tickSpacing: 60 }]
      },
      { ...fork20, id: "fork20-per-pair", fee: perPair(9000) },
      { ...uniswapV2, id: "uniswap-v2-claims-less", fee: perPair(9000) },
      { ...fork20, id: "fork20-rule-above", fee: { fixed: 3000 } },
      { ...uniswapV2, id: "uniswap-v2-whole-fee", fee: perPair(18) },
      { ...uniswapV2, id: "uniswap-v2-no-getter", fee: perPair(10_000, "swapFee()") }
    ]
  })
  const router = await deploy(lp, loadArtifact("TradeRouter"), [routerConfigOf(file, usdc, NativeMode.deposit)])
  const ids = file.venues.map((venue) => venue.id)
  return {
    file,
    router,
    index: (id) => {
      const at = ids.indexOf(id)
      if (at === -1) throw new Error(`no venue ${id}`)
      return at
    },
    fork20Pair,
    uniswapPair: getAddress(
      (await lp.public.readContract({
        address: contractAddress(env.manifest, "v2Factory"),
        abi: loadArtifact("UniswapV2Factory").abi,
        functionName: "getPair",
        args: [usdc, weth]
      })) as Address
    ),
    strayV2Pair,
    secondV3Pool: second.pool,
    secondV3Quoter: second.quoter,
    strayV3Pool,
    strayV3Factory
  }
}
