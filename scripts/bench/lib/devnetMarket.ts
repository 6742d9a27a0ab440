/**
 * Grows the devnet's own market by `pools` real Uniswap v2 pairs, each a new token against the devnet's
 * USDC, created through the devnet's v2 factory by `MarketBuilder` (100 pools per transaction, so the
 * block gas limit is raised first): the pools the service indexes, prices and routes like any other.
 * Reserves are 10 USDC and up, a tenth of a cent more per pool, so liquidity differs pool to pool.
 */
import { type Address, createPublicClient, createWalletClient, type Hex, http, parseAbi } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { arcChain } from "../../../layers/ChainRpc.js"
import type { Manifest } from "../../../schema/Manifest.js"
import { compileBuilder } from "./builder.js"

const PER_TX = 100
/** The builder's reserves are (1e12 + i·1e6) / SCALE in USDC base units: 10 USDC + i·0.00001. */
const SCALE = 100_000n

export interface DevnetMarket {
  /** Adds pools `first` .. `first + count - 1`; resolves with the block of the last. */
  readonly build: (first: number, count: number) => Promise<number>
}

export const devnetMarket = async (manifest: Manifest, pools: number): Promise<DevnetMarket> => {
  const chain = arcChain({ chainId: manifest.chainId, rpcUrl: manifest.rpcUrl })
  const account = privateKeyToAccount(manifest.accounts[0]!.privateKey as Hex)
  const client = createPublicClient({ chain, transport: http(manifest.rpcUrl), cacheTime: 0 })
  const wallet = createWalletClient({ chain, transport: http(manifest.rpcUrl), account })
  const send = async (hash: Promise<Hex>) => {
    // A busy machine and a node mining on a timer can take minutes for a 100-pool block: no timeout.
    const receipt = await client.waitForTransactionReceipt({ hash: await hash, pollingInterval: 5, timeout: 0 })
    if (receipt.status !== "success") throw new Error(`transaction ${receipt.transactionHash} reverted`)
    return receipt
  }
  await client.request({ method: "anvil_setBlockGasLimit" as never, params: ["0xb2d05e00"] as never })
  const usdc = manifest.contracts["usdc"] as Address
  const compiled = await compileBuilder()
  const builder = (await send(wallet.deployContract({
    abi: compiled.abi,
    bytecode: compiled.bytecode,
    args: [manifest.contracts["v2Factory"], usdc, SCALE]
  }))).contractAddress!
  // Every pool's reserve and its one swap, with a margin: sum of (1e12 + i·1e6)·1.001 / SCALE.
  const n = BigInt(pools)
  const needed = ((1_000_000_000_000n * n + 1_000_000n * n * n) * 1_002n) / (1_000n * SCALE)
  const erc20 = parseAbi(["function deposit() payable", "function transfer(address, uint256) returns (bool)"])
  await send(wallet.writeContract({ address: usdc, abi: erc20, functionName: "deposit", value: needed * 10n ** 12n }))
  await send(wallet.writeContract({ address: usdc, abi: erc20, functionName: "transfer", args: [builder, needed] }))
  const build = async (first: number, count: number) => {
    let block = 0
    for (let start = first; start < first + count; start += PER_TX) {
      const receipt = await send(wallet.writeContract({
        address: builder,
        abi: compiled.abi,
        functionName: "build",
        args: [BigInt(start), BigInt(Math.min(PER_TX, first + count - start))],
        gas: 2_900_000_000n
      }))
      block = Number(receipt.blockNumber)
    }
    return block
  }
  return { build }
}
