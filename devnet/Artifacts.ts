/**
 * Compiled contracts for the devnet, read from build/contracts (written by scripts/compile-contracts.ts,
 * which `npm test` and `npm run build:contracts` run).
 *
 * v3 trading helpers: Uniswap's own v3-periphery SwapRouter and NonfungiblePositionManager, copied from
 * `@uniswap/v3-periphery` 1.4.4. Their bytecode embeds POOL_INIT_CODE_HASH 0xe34f…8b54, which is the
 * hash of the UniswapV3Pool creation code in `@uniswap/v3-core` 1.0.1, so they work with that factory.
 * Both take a WETH9 address that only their native-value paths use. Those paths assume a 1:1 wrapper,
 * which USDC (1e12 native : 1) is not, so pass the zero address and never send native value to them.
 * v4 trading helpers: PoolSwapTest and PoolModifyLiquidityTest compiled from `@uniswap/v4-core` src/test.
 *
 * v4 hooks must live at an address whose low 14 bits equal their permission flags (`hookFlags`). Deploy
 * them through the deterministic deployment proxy that anvil preinstalls: send
 * `concat([salt, initCode])` to `CREATE2_DEPLOYER`, with `initCode` = creation code + ABI-encoded
 * constructor arguments and `salt` from `mineHookSalt(initCode, hookFlags.X)`.
 */
import { existsSync, readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { type Abi, type Address, bytesToHex, getAddress, type Hex, hexToBytes, keccak256 } from "viem"
import { HOOK_FLAG_MASK } from "../schema/Chain.js"

export type ArtifactName =
  | "CappedToken"
  | "DevToken"
  | "DevUSDC"
  | "DynamicFeeHook"
  | "HoneypotToken"
  | "LaunchToken"
  | "Launchpad"
  | "NonfungiblePositionManager"
  | "PancakeV3Factory"
  | "PancakeV3Liquidity"
  | "PancakeV3Pool"
  | "PancakeV3PoolDeployer"
  | "PoolManager"
  | "PoolModifyLiquidityTest"
  | "PoolSwapTest"
  | "SwapFeeHook"
  | "SwapRouter"
  | "TaxToken"
  | "TradeRouter"
  | "UniswapV2Factory"
  | "UniswapV2Pair"
  | "UniswapV2Fork20Factory"
  | "UniswapV2Fork20Pair"
  | "UniswapV25Factory"
  | "UniswapV25Pair"
  | "UniswapV3Factory"
  | "UniswapV3Pool"

export interface Artifact {
  readonly abi: Abi
  /** Creation code, 0x-prefixed. */
  readonly bytecode: Hex
  /** Runtime code, 0x-prefixed: what `anvil_setCode` takes (DevUSDC at 0x3600…). */
  readonly deployedBytecode: Hex
}

const buildDir = resolve(import.meta.dirname, "..", "build", "contracts")

const loaded = new Map<ArtifactName, Artifact>()

/** Parsed once per process: the bootstrap asks for the same few artifacts on every swap. */
export const loadArtifact = (name: ArtifactName): Artifact => {
  const known = loaded.get(name)
  if (known !== undefined) return known
  const path = join(buildDir, `${name}.json`)
  if (!existsSync(path)) throw new Error(`${path} is missing: run npm run build:contracts`)
  const { abi, bytecode, deployedBytecode } = JSON.parse(readFileSync(path, "utf8")) as Artifact
  const artifact = { abi, bytecode, deployedBytecode }
  loaded.set(name, artifact)
  return artifact
}

/** Permission bits each hook's address must carry (v4-core Hooks.sol: afterInitialize 1<<12,
 * beforeSwap 1<<7, afterSwap 1<<6, afterSwapReturnDelta 1<<2). All other of the low 14 bits must be 0. */
export const hookFlags = {
  DynamicFeeHook: 0x1080,
  SwapFeeHook: 0x0044
} as const

/** Arachnid's deterministic deployment proxy, present on every anvil chain. */
export const CREATE2_DEPLOYER: Address = "0x4e59b44847b379578588920ca78fbf26c0b4956c"

/** Finds the first salt (counting up from 0) whose CREATE2 address carries exactly `flags` in its low
 * 14 bits; about 16k tries on average. */
export const mineHookSalt = (
  initCode: Hex,
  flags: number,
  deployer: Address = CREATE2_DEPLOYER
): { readonly salt: Hex; readonly address: Address } => {
  // keccak256(0xff ++ deployer ++ salt ++ keccak256(initCode)); the salt's low 8 bytes are bytes 45..52.
  const preimage = new Uint8Array(85)
  preimage[0] = 0xff
  preimage.set(hexToBytes(deployer), 1)
  preimage.set(hexToBytes(keccak256(initCode)), 53)
  const view = new DataView(preimage.buffer)
  for (let i = 0n;; i++) {
    view.setBigUint64(45, i)
    const hash = keccak256(preimage, "bytes")
    const lowBits = ((hash[30] << 8) | hash[31]) & HOOK_FLAG_MASK
    if (lowBits === flags) {
      return { salt: bytesToHex(preimage.slice(21, 53)), address: getAddress(bytesToHex(hash.slice(12))) }
    }
  }
}
