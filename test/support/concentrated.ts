/**
 * A token listed in a v3 or v4 pool against USDC at 1 USDC per token, as a launcher would: the v3 pool
 * through Uniswap's NonfungiblePositionManager, the v4 pool through v4-periphery's PositionManager
 * (deployed here: the devnet's bootstrap has none) or v4-core's PoolModifyLiquidityTest helper, which
 * holds its positions itself. Each position's NFT id is read from the manager's own ERC-721 Transfer.
 */
import { readFileSync } from "node:fs"
import {
  type Abi,
  type Address,
  encodeAbiParameters,
  getAddress,
  type Hex,
  keccak256,
  maxUint128,
  maxUint256,
  parseAbi,
  parseAbiItem,
  parseEventLogs,
  parseUnits,
  type TransactionReceipt,
  zeroAddress
} from "viem"
import { loadArtifact } from "../../devnet/Artifacts.js"
import { resolveNpm } from "../../devnet/npmArtifacts.js"
import type { Manifest } from "../../schema/Manifest.js"
import { contractAddress } from "./devnet.js"
import { trapAbi } from "./traps.js"
import type { Wallet } from "./wallet.js"

export const FULL_RANGE = [-887_220, 887_220] as const
export const DEAD: Address = "0x000000000000000000000000000000000000dEaD"
const Q96 = 1n << 96n

export interface Listing {
  readonly token0: Address
  readonly token1: Address
  /** The pool's tick at 1 USDC per token. */
  readonly tick: number
  readonly sqrtPriceX96: bigint
}

/** 1 USDC (6 decimals) per token (18 decimals), in raw units: 1e-12 token1 per token0, or 1e12. */
const listing = (token: Address, usdc: Address): Listing => {
  const tokenFirst = BigInt(token) < BigInt(usdc)
  return {
    token0: tokenFirst ? token : usdc,
    token1: tokenFirst ? usdc : token,
    sqrtPriceX96: tokenFirst ? Q96 / 1_000_000n : Q96 * 1_000_000n,
    tick: Math.floor(Math.log(tokenFirst ? 1e-12 : 1e12) / Math.log(1.0001))
  }
}

/** Ticks on a 60 spacing wholly above the current tick: token0 only, out of range. */
export const above = (tick: number) => {
  const lower = (Math.floor(tick / 60) + 10) * 60
  return [lower, lower + 600] as const
}

const nftMinted = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)")
const tokenIdOf = (receipt: TransactionReceipt, manager: Address) =>
  parseEventLogs({ abi: [nftMinted], logs: receipt.logs, eventName: "Transfer" })
    .find((log) => getAddress(log.address) === getAddress(manager) && log.args.from === zeroAddress)!.args.tokenId

export const nftAbi = parseAbi([
  "function transferFrom(address from, address to, uint256 tokenId)",
  "function ownerOf(uint256 tokenId) view returns (address)"
])

const approve = async (lp: Wallet, spender: Address, tokens: ReadonlyArray<Address>) => {
  for (const token of tokens) await lp.approve(token, spender, maxUint256)
}

/** A v3 0.3 % pool for `token`, initialized; each `mint` adds a position through the NPM and names its NFT. */
export const v3Listing = async (manifest: Manifest, lp: Wallet, token: Address) => {
  const npm = contractAddress(manifest, "v3PositionManager")
  const npmAbi = loadArtifact("NonfungiblePositionManager").abi
  const at = listing(token, contractAddress(manifest, "usdc"))
  await lp.write(npm, npmAbi, "createAndInitializePoolIfNecessary", [at.token0, at.token1, 3000, at.sqrtPriceX96])
  const pool = (await lp.public.readContract({
    address: contractAddress(manifest, "v3Factory"),
    abi: loadArtifact("UniswapV3Factory").abi,
    functionName: "getPool",
    args: [at.token0, at.token1, 3000]
  })) as Address
  await lp.write(token, trapAbi, "setPool", [pool, true])
  await approve(lp, npm, [at.token0, at.token1])
  /** Mints `usdc` worth a side over `ticks` for `recipient`; resolves with the NFT and its liquidity. */
  const mint = async (ticks: readonly [number, number], usdc: number, recipient: Address) => {
    const tokenFirst = at.token0 === token
    const [tokens, dollars] = [parseUnits(String(usdc), 18), parseUnits(String(usdc), 6)]
    const receipt = await lp.write(npm, npmAbi, "mint", [{
      token0: at.token0,
      token1: at.token1,
      fee: 3000,
      tickLower: ticks[0],
      tickUpper: ticks[1],
      amount0Desired: tokenFirst ? tokens : dollars,
      amount1Desired: tokenFirst ? dollars : tokens,
      amount0Min: 0n,
      amount1Min: 0n,
      recipient,
      deadline: maxUint256
    }])
    const tokenId = tokenIdOf(receipt, npm)
    const position = (await lp.public.readContract({
      address: npm,
      abi: npmAbi,
      functionName: "positions",
      args: [tokenId]
    })) as ReadonlyArray<unknown>
    return { tokenId, liquidity: position[7] as bigint, block: receipt.blockNumber }
  }
  return { pool, npm, at, mint }
}

interface PoolKey {
  readonly currency0: Address
  readonly currency1: Address
  readonly fee: number
  readonly tickSpacing: number
  readonly hooks: Address
}

const poolKeyType = {
  type: "tuple",
  components: [
    { name: "currency0", type: "address" },
    { name: "currency1", type: "address" },
    { name: "fee", type: "uint24" },
    { name: "tickSpacing", type: "int24" },
    { name: "hooks", type: "address" }
  ]
} as const

/** A v4 0.3 % pool for `token` without hooks, initialized on the devnet's PoolManager. */
export const v4Listing = async (manifest: Manifest, lp: Wallet, token: Address) => {
  const poolManager = contractAddress(manifest, "v4PoolManager")
  const at = listing(token, contractAddress(manifest, "usdc"))
  const key: PoolKey = { currency0: at.token0, currency1: at.token1, fee: 3000, tickSpacing: 60, hooks: zeroAddress }
  await lp.write(token, trapAbi, "setPool", [poolManager, true])
  await lp.write(poolManager, loadArtifact("PoolManager").abi, "initialize", [key, at.sqrtPriceX96])
  const id: Hex = keccak256(encodeAbiParameters([poolKeyType], [key]))
  return { id, key, at }
}

const positionManagerArtifact = () => {
  const file = resolveNpm("@uniswap/v4-periphery/foundry-out/PositionManager.sol/PositionManager.json")
  const json = JSON.parse(readFileSync(file, "utf8")) as { abi: Abi; bytecode: { object: Hex } }
  return { abi: json.abi, bytecode: json.bytecode.object }
}

/** v4-periphery's PositionManager on the devnet's PoolManager and Permit2, no descriptor, no WETH. */
export const deployPositionManager = async (manifest: Manifest, lp: Wallet) => {
  const { abi, bytecode } = positionManagerArtifact()
  const hash = await lp.wallet.deployContract({
    abi,
    bytecode,
    args: [
      contractAddress(manifest, "v4PoolManager"),
      contractAddress(manifest, "permit2"),
      300_000n,
      zeroAddress,
      zeroAddress
    ],
    account: lp.account,
    chain: lp.chain
  } as never)
  const address = getAddress((await lp.public.waitForTransactionReceipt({ hash })).contractAddress!)
  const permit2Abi = parseAbi(["function approve(address token, address spender, uint160 amount, uint48 expiration)"])
  /** Mints `liquidity` over `ticks` in `key`'s pool for `owner`, paid through Permit2; resolves with the NFT. */
  const mint = async (key: PoolKey, ticks: readonly [number, number], liquidity: bigint, owner: Address) => {
    for (const token of [key.currency0, key.currency1]) {
      await lp.approve(token, contractAddress(manifest, "permit2"), maxUint256)
      await lp.write(contractAddress(manifest, "permit2"), permit2Abi, "approve", [
        token,
        address,
        (1n << 160n) - 1n,
        2 ** 48 - 1
      ])
    }
    const mintParams = encodeAbiParameters(
      [
        poolKeyType,
        { type: "int24" },
        { type: "int24" },
        { type: "uint256" },
        { type: "uint128" },
        { type: "uint128" },
        { type: "address" },
        { type: "bytes" }
      ],
      [key, ticks[0], ticks[1], liquidity, maxUint128, maxUint128, owner, "0x"]
    )
    const settle = encodeAbiParameters([{ type: "address" }, { type: "address" }], [key.currency0, key.currency1])
    const unlockData = encodeAbiParameters([{ type: "bytes" }, { type: "bytes[]" }], ["0x020d", [mintParams, settle]])
    const receipt = await lp.write(address, abi, "modifyLiquidities", [unlockData, maxUint256])
    return { tokenId: tokenIdOf(receipt, address), block: receipt.blockNumber }
  }
  return { address, mint }
}

/** Adds `liquidity` over `ticks` through v4-core's PoolModifyLiquidityTest: the helper holds the position. */
export const helperMint = async (
  manifest: Manifest,
  lp: Wallet,
  key: PoolKey,
  ticks: readonly [number, number],
  liquidity: bigint
) => {
  const helper = contractAddress(manifest, "v4LiquidityHelper")
  await approve(lp, helper, [key.currency0, key.currency1])
  const params = { tickLower: ticks[0], tickUpper: ticks[1], liquidityDelta: liquidity, salt: `0x${"00".repeat(32)}` }
  const receipt = await lp.write(helper, loadArtifact("PoolModifyLiquidityTest").abi, "modifyLiquidity", [
    key,
    params,
    "0x"
  ])
  return { helper, block: receipt.blockNumber }
}
