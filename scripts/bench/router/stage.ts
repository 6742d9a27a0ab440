/**
 * The gas benchmark's stage: a devnet from the bootstrap cache, one funded account, Uniswap's v2
 * Router02 and the Universal Router 2.1.0 deployed from their npm artifacts, and every approval each
 * router needs (ERC-20 approvals to the approval-funded routers, Permit2 allowances to the others).
 */
import { Option } from "effect"
import { readFileSync } from "node:fs"
import {
  type Abi,
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  keccak256,
  maxUint256,
  parseAbi,
  zeroAddress
} from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { loadArtifact } from "../../../devnet/Artifacts.js"
import { v2Router02Artifact } from "../../../devnet/npmArtifacts.js"
import { arcChain } from "../../../layers/ChainRpc.js"
import { benchDevnet } from "../lib/devnet.js"

const devnet = await benchDevnet("router-gas", { cacheDir: Option.some(".cache/devnet") })
export const stopDevnet = devnet.stop
export const manifest = devnet.manifest
const chain = arcChain({ chainId: manifest.chainId, rpcUrl: manifest.rpcUrl })
const transport = http(manifest.rpcUrl)
export const account = privateKeyToAccount(manifest.accounts[0]!.privateKey as Hex)
const reader = createPublicClient({ chain, transport, pollingInterval: 20 })
const wallet = createWalletClient({ chain, transport, account })
const test = createTestClient({ chain, transport, mode: "anvil" })

export const role = (name: string) => getAddress(manifest.contracts[name]!)
export const token = (label: string) => getAddress(manifest.tokens![label]!)
export const pool = (label: string) => manifest.pools!.find((p) => p.label === label)!
export const [USDC, WETH, WBTC] = [token("USDC"), token("WETH"), token("WBTC")]
export const router = role("router")
export const permit2 = role("permit2")
export const deadline = 2n ** 40n

export const send = async (to: Address, data: Hex) => {
  const hash = await wallet.sendTransaction({ to, data, gas: 3_000_000n })
  const receipt = await reader.waitForTransactionReceipt({ hash })
  if (receipt.status !== "success") throw new Error(`${to} reverted`)
  return receipt.gasUsed
}

// ---- set-up: the Universal Router from npm, and every approval each router needs ----
export const urArtifact = JSON.parse(
  readFileSync(
    "node_modules/@uniswap/universal-router/artifacts/contracts/UniversalRouter.sol/UniversalRouter.json",
    "utf8"
  )
) as { abi: Abi; bytecode: Hex }
const urHash = await wallet.deployContract({
  abi: urArtifact.abi,
  bytecode: urArtifact.bytecode,
  args: [{
    permit2,
    weth9: zeroAddress,
    v2Factory: role("v2Factory"),
    v3Factory: role("v3Factory"),
    pairInitCodeHash: keccak256(loadArtifact("UniswapV2Pair").bytecode),
    poolInitCodeHash: keccak256(loadArtifact("UniswapV3Pool").bytecode),
    v4PoolManager: role("v4PoolManager"),
    v3NFTPositionManager: role("v3PositionManager"),
    v4PositionManager: zeroAddress,
    spokePool: zeroAddress
  }],
  gas: 15_000_000n
})
export const universalRouter = getAddress((await reader.waitForTransactionReceipt({ hash: urHash })).contractAddress!)
export const v2RouterArtifact = v2Router02Artifact()
const v2RouterHash = await wallet.deployContract({
  abi: v2RouterArtifact.abi,
  bytecode: v2RouterArtifact.bytecode,
  args: [role("v2Factory"), zeroAddress],
  gas: 15_000_000n
})
export const v2Router = getAddress((await reader.waitForTransactionReceipt({ hash: v2RouterHash })).contractAddress!)
const permit2Abi = parseAbi(["function approve(address token, address spender, uint160 amount, uint48 expiration)"])
for (const asset of [USDC, WETH, WBTC]) {
  for (const spender of [router, v2Router, role("v3SwapRouter"), role("v4SwapHelper"), permit2]) {
    await send(asset, encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [spender, maxUint256] }))
  }
  for (const spender of [universalRouter, router]) {
    await send(
      permit2,
      encodeFunctionData({ abi: permit2Abi, functionName: "approve", args: [asset, spender, 2n ** 160n - 1n, 2 ** 47] })
    )
  }
}

export const balanceOf = (asset: Address): Promise<bigint> =>
  reader.readContract({ address: asset, abi: erc20Abi, functionName: "balanceOf", args: [account.address] })

export const snapshot = (): Promise<Hex> => test.snapshot()

export const revertTo = (id: Hex): Promise<void> => test.revert({ id })
