/**
 * A taker wallet on a benchmark's private devnet: a fresh account given native USDC with anvil's
 * `setBalance`, a little ERC-20 USDC for the swap fee that quote readiness expects of it (minted by the
 * devnet USDC's `deposit()`), and viem to sign permits and send the service's transactions as returned.
 * Benchmarks cannot import the tests' wallet helpers: those load vitest.
 */
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  parseAbi,
  parseEther
} from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { arcChain } from "../../../layers/ChainRpc.js"
import type { Manifest } from "../../../schema/Manifest.js"

export interface SentTransaction {
  readonly to: string
  readonly data: string
  readonly value: string
  readonly gas: string
  readonly purpose: string
}

export interface Mined {
  readonly hash: Hex
  readonly block: bigint
  readonly gasUsed: bigint
  readonly gasLimit: bigint
  readonly purpose: string
}

export interface BenchTaker {
  readonly address: Address
  readonly send: (tx: SentTransaction) => Promise<Mined>
  readonly signPermit: (typedData: unknown) => Promise<Hex>
  readonly balanceOf: (token: Address) => Promise<bigint>
}

const USDC: Address = "0x3600000000000000000000000000000000000000"

export const benchTaker = async (manifest: Manifest, nativeUsdc: string, feeUsdc: bigint): Promise<BenchTaker> => {
  const account = privateKeyToAccount(generatePrivateKey())
  const chain = arcChain({ chainId: manifest.chainId, rpcUrl: manifest.rpcUrl })
  const transport = http(manifest.rpcUrl)
  // Automine: a receipt is there as soon as the send returns; viem's 4 s default poll would dominate.
  const reader = createPublicClient({ chain, transport, cacheTime: 0, pollingInterval: 10 })
  const writer = createWalletClient({ account, chain, transport })
  await createTestClient({ chain, transport, mode: "anvil" }).setBalance({
    address: account.address,
    value: parseEther(nativeUsdc)
  })
  const mined = async (hash: Hex, gasLimit: bigint, purpose: string): Promise<Mined> => {
    const receipt = await reader.waitForTransactionReceipt({ hash })
    if (receipt.status !== "success") throw new Error(`${purpose} transaction ${hash} reverted`)
    return { hash, block: receipt.blockNumber, gasUsed: receipt.gasUsed, gasLimit, purpose }
  }
  if (feeUsdc > 0n) {
    const hash = await writer.writeContract({
      address: USDC,
      abi: parseAbi(["function deposit() payable"]),
      functionName: "deposit",
      value: feeUsdc * 10n ** 18n
    })
    await mined(hash, 0n, "deposit")
  }
  return {
    address: account.address,
    send: async (tx) => {
      const gas = BigInt(tx.gas)
      const hash = await writer.sendTransaction({
        to: tx.to as Address,
        data: tx.data as Hex,
        value: BigInt(tx.value),
        gas
      })
      return mined(hash, gas, tx.purpose)
    },
    signPermit: (typedData) => account.signTypedData(typedData as never),
    balanceOf: (token) =>
      reader.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [account.address] })
  }
}
