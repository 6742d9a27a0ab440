/**
 * A token listed on a benchmark's devnet by a plain viem script, as a user would: deployed, paired with
 * USDC through the devnet's v2 factory and given $20,000 of USDC against 10,000 tokens. What the scan
 * benchmarks time from listing to a verdict in search.
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
import { loadArtifact } from "../../../devnet/Artifacts.js"
import { arcChain } from "../../../layers/ChainRpc.js"
import type { Manifest } from "../../../schema/Manifest.js"

const abi = parseAbi([
  "function createPair(address, address) returns (address)",
  "function getPair(address, address) view returns (address)",
  "function deposit() payable",
  "function transfer(address, uint256) returns (bool)",
  "function mint(address) returns (uint256)"
])
const USDC_PER_LISTING = 20_000n * 10n ** 18n

/** Lists new tokens from the manifest's account `accountIndex`. */
export const newListings = (manifest: Manifest, accountIndex: number) => {
  const chain = arcChain({ chainId: manifest.chainId, rpcUrl: manifest.rpcUrl })
  const account = privateKeyToAccount(manifest.accounts[accountIndex]!.privateKey as Hex)
  const client = createPublicClient({ chain, transport: http(manifest.rpcUrl), pollingInterval: 20 })
  const wallet = createWalletClient({ chain, transport: http(manifest.rpcUrl), account, pollingInterval: 20 })
  const usdc = manifest.contracts["usdc"] as Address
  const factory = manifest.contracts["v2Factory"] as Address
  const artifact = loadArtifact("DevToken")
  const send = async (to: Address, data: Hex, value = 0n) =>
    client.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to, data, value }) })

  return {
    /** Wraps native USDC for `count` listings up front, so each listing is its own few blocks. */
    fund: (count: number) =>
      send(usdc, encodeFunctionData({ abi, functionName: "deposit" }), BigInt(count) * USDC_PER_LISTING),
    /** Deploys and pairs one token; its address and the block its liquidity landed in. */
    list: async (name: string, symbol: string) => {
      const deployed = await client.waitForTransactionReceipt({
        hash: await wallet.deployContract({
          abi: artifact.abi,
          bytecode: artifact.bytecode as Hex,
          args: [name, symbol, 18, 1_000_000n * 10n ** 18n]
        })
      })
      const token = deployed.contractAddress!
      await send(factory, encodeFunctionData({ abi, functionName: "createPair", args: [token, usdc] }))
      const pair = await client.readContract({ address: factory, abi, functionName: "getPair", args: [token, usdc] })
      await send(usdc, encodeFunctionData({ abi, functionName: "transfer", args: [pair, 20_000_000_000n] }))
      await send(token, encodeFunctionData({ abi, functionName: "transfer", args: [pair, 10_000n * 10n ** 18n] }))
      const minted = await send(pair, encodeFunctionData({ abi, functionName: "mint", args: [account.address] }))
      return { token, block: minted.blockNumber }
    },
    headBlock: () => client.getBlockNumber()
  }
}
