/**
 * The demo agent's wallet: a viem account from the devnet manifest that reads its balances and sends
 * the service's unsigned transactions exactly as returned (to, data, value, gas). The service never
 * signs or broadcasts; this is the part a user's agent owns.
 */
import { readFileSync } from "node:fs"
import {
  type Address,
  createPublicClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  type Hex,
  http,
  parseAbi
} from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { viemWallet } from "../../src/client/index.js"

export interface DemoManifest {
  readonly rpcUrl: string
  readonly chainId: number
  readonly accounts: ReadonlyArray<{ readonly privateKey: Hex }>
}

/** What `swap` and `swap/tx` return in `transactions`. */
export interface UnsignedTransaction {
  readonly to: string
  readonly data: string
  readonly value: string
  readonly gas: string
  readonly purpose: string
}

export const walletFrom = (manifestPath: string) => {
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as DemoManifest
  const account = privateKeyToAccount(manifest.accounts[0]!.privateKey)
  const chain = defineChain({
    id: manifest.chainId,
    name: "Arc devnet",
    nativeCurrency: { name: "USDC", symbol: "USDC", decimals: 18 },
    rpcUrls: { default: { http: [manifest.rpcUrl] } }
  })
  // A local automining chain: viem's default 4 s polling would dominate every step.
  const transport = http(manifest.rpcUrl)
  const reader = createPublicClient({ chain, transport, pollingInterval: 50, cacheTime: 0 })
  const writer = createWalletClient({ account, chain, transport, pollingInterval: 50 })

  const balanceOf = (token: Address, owner: Address = account.address) =>
    reader.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [owner] })

  /** Sends one transaction as the service returned it and waits until it is mined. */
  const send = async (tx: UnsignedTransaction) => {
    const hash = await writer.sendTransaction({
      to: tx.to as Address,
      data: tx.data as Hex,
      value: BigInt(tx.value),
      gas: BigInt(tx.gas)
    })
    return reader.waitForTransactionReceipt({ hash })
  }

  /**
   * Devnet only: there the ERC-20 USDC the fees are paid in is a separate token minted by `deposit()`
   * with native value; on Arc the native and ERC-20 USDC are one balance and this is never needed.
   */
  const depositUsdc = async (usdc: Address, wholeUsdc: bigint) => {
    const hash = await writer.writeContract({
      address: usdc,
      abi: parseAbi(["function deposit() payable"]),
      functionName: "deposit",
      value: wholeUsdc * 10n ** 18n
    })
    return reader.waitForTransactionReceipt({ hash })
  }

  const nativeBalance = () => reader.getBalance({ address: account.address })
  const mined = (hash: Hex) => reader.waitForTransactionReceipt({ hash })

  // The same wallet as the client's trades use it (sign the permit, send as returned).
  const trading = viemWallet(writer, reader)

  return { account, trading, balanceOf, nativeBalance, mined, send, depositUsdc }
}

export type Wallet = ReturnType<typeof walletFrom>
