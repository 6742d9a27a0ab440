/**
 * Hostile fixtures for the router's safety tests, deployed with viem on a private devnet by one of its
 * funded accounts: a re-entering token with real v2 pairs and a real v3 pool, a re-entering v4 hook and
 * a greedy v4 hook each on a real USDC/WETH pool, and a contract posing as a v3 pool.
 */
import { readFileSync } from "node:fs"
import {
  type Abi,
  type Address,
  concat,
  encodeAbiParameters,
  encodeDeployData,
  getAddress,
  type Hex,
  keccak256,
  maxUint256,
  parseAbi,
  parseUnits
} from "viem"
import { CREATE2_DEPLOYER, loadArtifact, mineHookSalt } from "../../devnet/Artifacts.js"
import { sqrt } from "../../src/math/FullMath.js"
import { contractAddress, poolByLabel } from "../support/devnet.js"
import type { Wallet } from "../support/wallet.js"
import type { Env } from "./support.js"

export const testArtifact = (name: string): { abi: Abi; bytecode: Hex } => {
  const json = JSON.parse(readFileSync(`build/contracts/${name}.json`, "utf8")) as { abi: Abi; bytecode: Hex }
  return { abi: json.abi, bytecode: json.bytecode }
}

export const reentrantAbi = parseAbi([
  "function arm(address target, bytes attack)",
  "function attempts() view returns (uint256)",
  "function successes() view returns (uint256)"
])

export const fakePoolAbi = parseAbi([
  "function strike(address router)",
  "function strikeUnlock(address router, bytes data)",
  "function strikeNamed(address router, string signature)"
])

const stateViewAbi = parseAbi([
  "function getSlot0(bytes32 poolId) view returns (uint160 sqrtPriceX96, int24 tick, uint24 protocolFee, uint24 lpFee)"
])

export interface V4Pool {
  readonly key: {
    readonly currency0: Address
    readonly currency1: Address
    readonly fee: number
    readonly tickSpacing: number
    readonly hooks: Address
  }
  readonly id: Hex
}

export interface Hostile {
  readonly evil: Address
  readonly evilUsdcPair: Address
  readonly evilWethPair: Address
  readonly evilUsdcV3: Address
  readonly reentrantHook: Address
  readonly reentrantPool: V4Pool
  readonly greedyPool: V4Pool
  readonly fakePool: Address
}

export const deploy = async (lp: Wallet, artifact: { abi: Abi; bytecode: Hex }, args: ReadonlyArray<unknown>) => {
  const hash = await lp.wallet.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args,
    account: lp.account,
    chain: lp.chain,
    gas: 10_000_000n
  } as never)
  const receipt = await lp.public.waitForTransactionReceipt({ hash })
  if (receipt.status !== "success" || receipt.contractAddress == null) throw new Error("deploy failed")
  return getAddress(receipt.contractAddress)
}

/** The pool a v3 factory has for (a, b, fee). */
export const v3PoolAt = async (lp: Wallet, factory: Address, a: Address, b: Address, fee: number) =>
  getAddress(
    (await lp.public.readContract({
      address: factory,
      abi: loadArtifact("UniswapV3Factory").abi,
      functionName: "getPool",
      args: [a, b, fee]
    })) as Address
  )

const deployHook = async (lp: Wallet, name: string, flags: number, manager: Address) => {
  const artifact = testArtifact(name)
  const initCode = encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args: [manager] } as never)
  const { salt, address } = mineHookSalt(initCode, flags)
  const hash = await lp.wallet.sendTransaction({
    account: lp.account,
    chain: lp.chain,
    to: CREATE2_DEPLOYER,
    data: concat([salt, initCode]),
    gas: 10_000_000n
  })
  await lp.public.waitForTransactionReceipt({ hash })
  return address
}

const FULL_RANGE_60 = { tickLower: -887_220, tickUpper: 887_220 }

const v4PoolOf = (a: Address, b: Address, hooks: Address): V4Pool => {
  const [currency0, currency1] = a.toLowerCase() < b.toLowerCase() ? [a, b] : [b, a]
  const key = { currency0, currency1, fee: 3000, tickSpacing: 60, hooks }
  const id = keccak256(encodeAbiParameters(
    [{ type: "address" }, { type: "address" }, { type: "uint24" }, { type: "int24" }, { type: "address" }],
    [key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks]
  ))
  return { key, id }
}

/** A USDC/WETH v4 pool behind `hooks`, at the price of the seeded plain pool, with full-range liquidity. */
const seedV4Pool = async (env: Env, lp: Wallet, hooks: Address) => {
  const manager = contractAddress(env.manifest, "v4PoolManager")
  const helper = contractAddress(env.manifest, "v4LiquidityHelper")
  const pool = v4PoolOf(env.usdc, env.token("WETH"), hooks)
  const [sqrtPriceX96] = await lp.public.readContract({
    address: contractAddress(env.manifest, "v4StateView"),
    abi: stateViewAbi,
    functionName: "getSlot0",
    args: [poolByLabel(env.manifest, "v4:WETH/USDC:500").id as Hex]
  })
  await lp.write(manager, loadArtifact("PoolManager").abi, "initialize", [pool.key, sqrtPriceX96])
  await lp.write(helper, loadArtifact("PoolModifyLiquidityTest").abi, "modifyLiquidity", [
    pool.key,
    { ...FULL_RANGE_60, liquidityDelta: 3n * 10n ** 13n, salt: `0x${"00".repeat(32)}` },
    "0x"
  ])
  return pool
}

export const deployHostile = async (env: Env, lp: Wallet): Promise<Hostile> => {
  const USDC = env.usdc
  const WETH = env.token("WETH")
  const manager = contractAddress(env.manifest, "v4PoolManager")
  for (const spender of ["v4LiquidityHelper", "v3PositionManager"]) {
    for (const token of [USDC, WETH]) await lp.approve(token, contractAddress(env.manifest, spender), maxUint256)
  }

  const evil = await deploy(lp, testArtifact("ReentrantToken"), ["Evil", "EVIL", parseUnits("1000000000", 18)])
  await lp.approve(evil, contractAddress(env.manifest, "v3PositionManager"), maxUint256)

  // v2 pairs EVIL/USDC at 1 USDC and EVIL/WETH at 1/3000 WETH.
  const factory = contractAddress(env.manifest, "v2Factory")
  const factoryAbi = loadArtifact("UniswapV2Factory").abi
  const pairAbi = loadArtifact("UniswapV2Pair").abi
  const v2Pair = async (other: Address, evilAmount: bigint, otherAmount: bigint) => {
    await lp.write(factory, factoryAbi, "createPair", [evil, other])
    const pair = (await lp.public.readContract({
      address: factory,
      abi: factoryAbi,
      functionName: "getPair",
      args: [evil, other]
    })) as Address
    await lp.transfer(evil, pair, evilAmount)
    await lp.transfer(other, pair, otherAmount)
    await lp.write(pair, pairAbi, "mint", [lp.address])
    return getAddress(pair)
  }
  const evilUsdcPair = await v2Pair(USDC, parseUnits("20000", 18), parseUnits("20000", 6))
  const evilWethPair = await v2Pair(WETH, parseUnits("30000", 18), parseUnits("10", 18))

  // v3 EVIL/USDC 0.3 % at 1 USDC, full range.
  const positions = contractAddress(env.manifest, "v3PositionManager")
  const positionsAbi = loadArtifact("NonfungiblePositionManager").abi
  const [token0, token1] = evil.toLowerCase() < USDC.toLowerCase() ? [evil, USDC] : [USDC, evil]
  const [amount0, amount1] = token0 === evil ? [10n ** 18n, 10n ** 6n] : [10n ** 6n, 10n ** 18n]
  await lp.write(positions, positionsAbi, "createAndInitializePoolIfNecessary", [
    token0,
    token1,
    3000,
    sqrt((amount1 << 192n) / amount0)
  ])
  const deposit = (token: Address) => (token === evil ? parseUnits("20000", 18) : parseUnits("20000", 6))
  await lp.write(positions, positionsAbi, "mint", [{
    token0,
    token1,
    fee: 3000,
    ...FULL_RANGE_60,
    amount0Desired: deposit(token0),
    amount1Desired: deposit(token1),
    amount0Min: 0n,
    amount1Min: 0n,
    recipient: lp.address,
    deadline: maxUint256
  }])
  const evilUsdcV3 = await v3PoolAt(lp, contractAddress(env.manifest, "v3Factory"), token0, token1, 3000)

  const reentrantHook = await deployHook(lp, "ReentrantHook", 0x00c0, manager)
  const reentrantPool = await seedV4Pool(env, lp, reentrantHook)
  const greedyHook = await deployHook(lp, "GreedyHook", 0x0044, manager)
  const greedyPool = await seedV4Pool(env, lp, greedyHook)
  const fakePool = await deploy(lp, testArtifact("FakePool"), [USDC, parseUnits("1000", 6)])
  return { evil, evilUsdcPair, evilWethPair, evilUsdcV3, reentrantHook, reentrantPool, greedyPool, fakePool }
}
