/**
 * Uniswap's own v2 Router02, deployed on a devnet from its npm artifact, and trades through its
 * fee-on-transfer functions as a wallet makes them: the reference that tax tokens are sold against.
 */
import { readFileSync } from "node:fs"
import { type Abi, type Address, getAddress, type Hex, maxUint256, parseAbi, zeroAddress } from "viem"
import type { Manifest } from "../../schema/Manifest.js"
import { contractAddress } from "./devnet.js"
import type { Wallet } from "./wallet.js"

export const router02Abi = parseAbi([
  "function swapExactTokensForTokensSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)"
])

const artifact = () => {
  const json = JSON.parse(
    readFileSync("node_modules/@uniswap/v2-periphery/build/UniswapV2Router02.json", "utf8")
  ) as { abi: Abi; bytecode: string }
  return { abi: json.abi, bytecode: (json.bytecode.startsWith("0x") ? json.bytecode : `0x${json.bytecode}`) as Hex }
}

/**
 * Router02 on the devnet's v2 factory. It hard-codes mainnet's pair init-code hash, which the v2-core pair
 * the devnet deploys has. Its WETH is unused by the token-to-token functions: Arc has no wrapped native.
 */
export const deployRouter02 = async (manifest: Manifest, deployer: Wallet): Promise<Address> => {
  const { abi, bytecode } = artifact()
  const hash = await deployer.wallet.deployContract({
    abi,
    bytecode,
    args: [contractAddress(manifest, "v2Factory"), zeroAddress],
    account: deployer.account,
    chain: deployer.chain,
    gas: 6_000_000n
  } as never)
  const receipt = await deployer.public.waitForTransactionReceipt({ hash })
  if (receipt.contractAddress == null) throw new Error("Router02 did not deploy")
  return getAddress(receipt.contractAddress)
}

/**
 * Sells `amountIn` of `tokenIn` for `tokenOut` through Router02's fee-on-transfer function, with the gas
 * the node estimates (plus the wallet's headroom); resolves with what left the wallet, what arrived and
 * the receipt. Approves Router02 first when needed.
 */
export const swapOnRouter02 = async (
  wallet: Wallet,
  router02: Address,
  tokenIn: Address,
  tokenOut: Address,
  amountIn: bigint
) => {
  const allowance = await wallet.public.readContract({
    address: tokenIn,
    abi: parseAbi(["function allowance(address, address) view returns (uint256)"]),
    functionName: "allowance",
    args: [wallet.address, router02]
  })
  if (allowance < amountIn) await wallet.approve(tokenIn, router02, maxUint256)
  let receipt: Awaited<ReturnType<Wallet["write"]>> | undefined
  const [sent, received] = await wallet.changes([[tokenIn, wallet.address], [tokenOut, wallet.address]], async () => {
    receipt = await wallet.write(router02, router02Abi, "swapExactTokensForTokensSupportingFeeOnTransferTokens", [
      amountIn,
      0n,
      [tokenIn, tokenOut],
      wallet.address,
      maxUint256
    ])
  })
  return { sent: -sent!, received: received!, receipt: receipt! }
}
