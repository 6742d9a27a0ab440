/**
 * A steady stream of swaps on a benchmark's devnet: manifest accounts trading a v2 pair directly (USDC
 * in, then the pair's `swap` for half of the fair output, so a swap that lands behind another never
 * reverts), each every `everyMs`, without waiting for blocks. What a busy chain looks like to the index.
 */
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  parseAbi
} from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { arcChain } from "../../../layers/ChainRpc.js"
import type { Manifest } from "../../../schema/Manifest.js"

const abi = parseAbi([
  "function transfer(address, uint256) returns (bool)",
  "function swap(uint256, uint256, address, bytes)",
  "function getReserves() view returns (uint112, uint112, uint32)"
])

export const startSwapStream = (manifest: Manifest, traders: ReadonlyArray<number>, everyMs: number) => {
  const chain = arcChain({ chainId: manifest.chainId, rpcUrl: manifest.rpcUrl })
  const client = createPublicClient({ chain, transport: http(manifest.rpcUrl), cacheTime: 0 })
  const pool = (manifest.pools ?? []).find((candidate) => candidate.label === "v2:WETH/USDC")!
  const pair = pool.address as Address
  const usdc = manifest.contracts["usdc"] as Address
  const usdcIsToken0 = pool.token0.toLowerCase() === usdc.toLowerCase()
  let running = true
  let sent = 0

  const trade = async (index: number) => {
    const account = privateKeyToAccount(manifest.accounts[index]!.privateKey as Hex)
    const wallet = createWalletClient({ chain, transport: http(manifest.rpcUrl), account })
    let nonce = await client.getTransactionCount({ address: account.address, blockTag: "pending" })
    while (running) {
      const [r0, r1] = await client.readContract({ address: pair, abi, functionName: "getReserves" })
      const [reserveIn, reserveOut] = usdcIsToken0 ? [r0, r1] : [r1, r0]
      const amountIn = 50n * 10n ** 6n
      const out = (amountIn * 997n * reserveOut) / (reserveIn * 1_000n + amountIn * 997n) / 2n
      const send = (to: Address, data: Hex) =>
        wallet.sendTransaction({ to, data, nonce: nonce++, gas: 200_000n, chain, account })
      await send(usdc, encodeFunctionData({ abi, functionName: "transfer", args: [pair, amountIn] }))
      await send(
        pair,
        encodeFunctionData({
          abi,
          functionName: "swap",
          args: usdcIsToken0 ? [0n, out, account.address, "0x"] : [out, 0n, account.address, "0x"]
        })
      )
      sent++
      await new Promise((resolve) => setTimeout(resolve, everyMs))
    }
  }
  const loops = traders.map((index) => trade(index))
  return {
    sent: () => sent,
    stop: async () => {
      running = false
      await Promise.all(loops)
    }
  }
}
