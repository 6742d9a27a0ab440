/**
 * Deploys the protocols of the devnet: USDC at Arc's address, canonical Permit2, the real Uniswap v2,
 * v3 and v4 contracts with their periphery, the project's hooks at CREATE2-mined addresses and the
 * launchpad, then the fork venues (./forkVenues.ts, ./pairFeeVenue.ts, ./pancakeVenue.ts). Returns every address by
 * manifest role.
 */
import { Effect } from "effect"
import { type Address, concat, encodeDeployData, getCreate2Address, type Hex, keccak256, zeroAddress } from "viem"
import { RpcHex, USDC_ADDRESS } from "../schema/Chain.js"
import { CREATE2_DEPLOYER, hookFlags, loadArtifact, mineHookSalt } from "./Artifacts.js"
import { DevnetError } from "./DevnetError.js"
import { deployForkVenues } from "./forkVenues.js"
import {
  MULTICALL3_ADDRESS,
  multicall3CreationCode,
  npmArtifact,
  PERMIT2_ADDRESS,
  PERMIT2_SALT,
  permit2Artifact
} from "./npmArtifacts.js"
import { deployPairFeeVenue } from "./pairFeeVenue.js"
import { deployPancakeV3 } from "./pancakeVenue.js"
import type { Tx } from "./Tx.js"

/** Anti-snipe schedule of the dynamic-fee hook: 5 % at launch falling to 0.3 % over eight hours. The
 * hooked pools open at the start of the six-hour history, so swaps in the history pay falling fees and a
 * fresh devnet still shows a fee above the base for about two hours. */
export const DYNAMIC_FEE = { startFee: 50_000, baseFee: 3_000, decaySeconds: 8 * 3_600 } as const
/** Creator fee of the swap-fee hook, in bps of each swap's output. */
export const CREATOR_FEE_BPS = 100
/** Launchpad curve: virtual USDC reserve and the USDC raised at which a token graduates. */
export const LAUNCHPAD = { virtualUsdc: 5_000_000_000n, graduationUsdc: 20_000_000_000n } as const

export type Protocol = Readonly<
  Record<
    | "usdc"
    | "permit2"
    | "v2Factory"
    | "v3Factory"
    | "v3SwapRouter"
    | "v3PositionManager"
    | "v3Quoter"
    | "v4PoolManager"
    | "v4SwapHelper"
    | "v4LiquidityHelper"
    | "v4Quoter"
    | "v4StateView"
    | "dynamicFeeHook"
    | "swapFeeHook"
    | "launchpad"
    | "lowFeeV2Factory"
    | "forkV3Factory"
    | "forkV3PositionManager"
    | "forkV3Quoter"
    | "forkV3SwapRouter"
    | "pairFeeV2Factory"
    | "pancakeV3Factory"
    | "pancakeV3PoolDeployer"
    | "pancakeV3Liquidity",
    Address
  >
>

/** CREATE2 through anvil's deterministic deployer; fails unless code lands at the expected address. */
const create2 = Effect.fn("create2")(function*(tx: Tx, from: Address, salt: Hex, initCode: Hex, label: string) {
  const address = getCreate2Address({ from: CREATE2_DEPLOYER, salt, bytecode: initCode })
  yield* tx.send(from, { to: CREATE2_DEPLOYER, data: concat([salt, initCode]) }, `create2 ${label}`)
  const code = yield* tx.readRpc(RpcHex, "eth_getCode", [address, "latest"])
  if (code === "0x") return yield* new DevnetError({ message: `create2 ${label}: no code at ${address}` })
  return address
})

/** What `mineHookSalt` finds for the devnet hooks' init code as committed, by the init code's keccak256:
 * the search (about 45k hashes, over a second of the cold start's CPU) runs only for other init code. */
const MINED_HOOK_SALTS: Readonly<Record<Hex, Hex>> = {
  // DynamicFeeHook
  "0x66478a74e407626a43dc7e7c7554f83108aad4412fa565956a6482e553f1ef70":
    "0x000000000000000000000000000000000000000000000000000000000000480e",
  // SwapFeeHook
  "0x778d3155d8b0784dd697c4eb1773170c1a92e7454ac287a99c27122ffb895a9b":
    "0x0000000000000000000000000000000000000000000000000000000000006a88"
}

const deployHook = (tx: Tx, from: Address, name: keyof typeof hookFlags, args: ReadonlyArray<unknown>) => {
  const artifact = loadArtifact(name)
  const initCode = encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args } as never)
  // v4 reads a hook's permissions from the low bits of its address, so the salt is mined for them.
  const salt = MINED_HOOK_SALTS[keccak256(initCode)] ?? mineHookSalt(initCode, hookFlags[name]).salt
  return create2(tx, from, salt, initCode, name)
}

export const deployProtocol = Effect.fn("deployProtocol")(function*(tx: Tx, deployer: Address, treasury: Address) {
  const deploy = (name: Parameters<typeof loadArtifact>[0], args: ReadonlyArray<unknown> = []) =>
    tx.deploy(deployer, loadArtifact(name), args, name)

  // USDC: runtime code only (no constructor ran), as Arc has it at a fixed system address.
  yield* tx.request("anvil_setCode", [USDC_ADDRESS, loadArtifact("DevUSDC").deployedBytecode])

  // Multicall3 at its canonical address, as on Arc: the x402 library reads through it to tell a payer
  // without the balance from an authorization already spent. Its constructor sets nothing, so running
  // the creation code as a call yields exactly the runtime code a deployment would leave.
  const multicall3 = yield* tx.readRpc(RpcHex, "eth_call", [{ data: multicall3CreationCode() }, "latest"])
  yield* tx.request("anvil_setCode", [MULTICALL3_ADDRESS, multicall3])

  const permit2 = permit2Artifact()
  const permit2Address = yield* create2(tx, deployer, PERMIT2_SALT, permit2.bytecode, "Permit2")
  if (permit2Address.toLowerCase() !== PERMIT2_ADDRESS.toLowerCase()) {
    return yield* new DevnetError({
      message: `Permit2 creation code yields ${permit2Address}, not the canonical address`
    })
  }

  const v2Factory = yield* deploy("UniswapV2Factory", [deployer])
  const v3Factory = yield* deploy("UniswapV3Factory")
  // The 0.01 % tier, enabled by governance on mainnet after launch.
  yield* tx.write(deployer, { address: v3Factory, abi: loadArtifact("UniswapV3Factory").abi }, "enableFeeAmount", [
    100,
    1
  ])
  // v3 periphery takes a WETH9 for native-value paths; Arc has no wrapped native, and nothing here
  // sends native value through them, so USDC stands in. No NFT descriptor: tokenURI is not needed.
  const v3SwapRouter = yield* deploy("SwapRouter", [v3Factory, USDC_ADDRESS])
  const v3PositionManager = yield* deploy("NonfungiblePositionManager", [v3Factory, USDC_ADDRESS, zeroAddress])
  const v3Quoter = yield* tx.deploy(deployer, npmArtifact("v3Quoter"), [v3Factory, USDC_ADDRESS], "QuoterV2")

  const v4PoolManager = yield* deploy("PoolManager", [deployer])
  const v4SwapHelper = yield* deploy("PoolSwapTest", [v4PoolManager])
  const v4LiquidityHelper = yield* deploy("PoolModifyLiquidityTest", [v4PoolManager])
  const v4Quoter = yield* tx.deploy(deployer, npmArtifact("v4Quoter"), [v4PoolManager], "V4Quoter")
  const v4StateView = yield* tx.deploy(deployer, npmArtifact("v4StateView"), [v4PoolManager], "StateView")
  const dynamicFeeHook = yield* deployHook(tx, deployer, "DynamicFeeHook", [
    v4PoolManager,
    DYNAMIC_FEE.startFee,
    DYNAMIC_FEE.baseFee,
    DYNAMIC_FEE.decaySeconds
  ])
  const swapFeeHook = yield* deployHook(tx, deployer, "SwapFeeHook", [v4PoolManager, CREATOR_FEE_BPS, treasury])

  const launchpad = yield* deploy("Launchpad", [
    USDC_ADDRESS,
    v2Factory,
    LAUNCHPAD.virtualUsdc,
    LAUNCHPAD.graduationUsdc
  ])
  // Last, so that no canonical contract's address moves because of them.
  const forks = yield* deployForkVenues(tx, deployer)
  const pairFeeV2Factory = yield* deployPairFeeVenue(tx, deployer)
  const pancake = yield* deployPancakeV3(tx, deployer)

  return {
    usdc: USDC_ADDRESS,
    permit2: permit2Address,
    v2Factory,
    v3Factory,
    v3SwapRouter,
    v3PositionManager,
    v3Quoter,
    v4PoolManager,
    v4SwapHelper,
    v4LiquidityHelper,
    v4Quoter,
    v4StateView,
    dynamicFeeHook,
    swapFeeHook,
    launchpad,
    ...forks,
    pairFeeV2Factory,
    ...pancake
  } satisfies Protocol
})

/** keccak256 of the runtime code at each role: recorded with a cache entry and checked on reload. */
export const codeHashes = Effect.fn("codeHashes")(function*(tx: Tx, contracts: Readonly<Record<string, Address>>) {
  const entries = yield* Effect.forEach(
    Object.entries(contracts),
    ([role, address]) =>
      Effect.map(tx.readRpc(RpcHex, "eth_getCode", [address, "latest"]), (code) => [role, keccak256(code)] as const),
    { concurrency: "unbounded" }
  )
  return Object.fromEntries(entries) as Record<string, Hex>
})
