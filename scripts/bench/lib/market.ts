/**
 * A real market of `pools` Uniswap v2 pairs on a private anvil, built by `MarketBuilder` through
 * Uniswap's own factory: 100 pools (token, pair, liquidity, one swap) per transaction and block. Built afresh
 * each run: anvil executes it in seconds, while a saved state of it runs to gigabytes.
 */
import { readFileSync } from "node:fs"
import { type Abi, type Address, createPublicClient, createWalletClient, type Hex, http } from "viem"
import { mnemonicToAccount } from "viem/accounts"
import { arcChain } from "../../../layers/ChainRpc.js"
import { type Anvil, startAnvil } from "./anvil.js"
import { compileBuilder } from "./builder.js"

export interface MarketInfo {
  readonly factory: Address
  readonly quote: Address
  readonly builder: Address
  readonly startBlock: number
  readonly pools: number
}

export interface RealMarket {
  readonly anvil: Anvil
  readonly info: MarketInfo
  /** Block number once the market is built. */
  readonly head: number
  readonly builderAbi: Abi
  readonly buildMore: (first: number, count: number) => Promise<number>
}

const PER_TX = 100

const clientsFor = (url: string) => {
  const chain = arcChain({ chainId: 5042, rpcUrl: url })
  const account = mnemonicToAccount("test test test test test test test test test test test junk")
  return {
    chain,
    account,
    client: createPublicClient({ chain, transport: http(url), cacheTime: 0 }),
    wallet: createWalletClient({ chain, transport: http(url), account })
  }
}

export const realMarket = async (pools: number, log: (line: string) => void): Promise<RealMarket> => {
  const anvil = await startAnvil(["--gas-limit", "3000000000"])
  const { account, chain, client, wallet } = clientsFor(anvil.url)
  await client.request({ method: "anvil_setLoggingEnabled" as never, params: [false] as never })
  const compiled = await compileBuilder()
  const send = async (hash: Promise<Hex>) => {
    const receipt = await client.waitForTransactionReceipt({ hash: await hash, pollingInterval: 5 })
    if (receipt.status !== "success") throw new Error(`transaction ${receipt.transactionHash} reverted`)
    return receipt
  }
  let info: MarketInfo
  {
    const started = performance.now()
    const startBlock = Number(await client.getBlockNumber()) + 1
    const factoryJson = JSON.parse(
      readFileSync("node_modules/@uniswap/v2-core/build/UniswapV2Factory.json", "utf8")
    ) as {
      abi: Abi
      bytecode: Hex
    }
    const factory = (await send(wallet.deployContract({
      abi: factoryJson.abi,
      bytecode: factoryJson.bytecode,
      args: [account.address],
      account,
      chain
    }))).contractAddress!
    const builder = (await send(wallet.deployContract({
      abi: compiled.abi,
      bytecode: compiled.bytecode,
      args: [factory, "0x0000000000000000000000000000000000000000", 1n],
      account,
      chain
    }))).contractAddress!
    for (let first = 0; first < pools; first += PER_TX) {
      await send(wallet.writeContract({
        address: builder,
        abi: compiled.abi,
        functionName: "build",
        args: [BigInt(first), BigInt(Math.min(PER_TX, pools - first))],
        gas: 2_900_000_000n,
        account,
        chain
      }))
    }
    const quote = await client.readContract({ address: builder, abi: compiled.abi, functionName: "quote" }) as Address
    info = { factory, quote, builder, startBlock, pools }
    log(`market of ${pools} v2 pools built on anvil in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  }
  const buildMore = async (first: number, count: number) =>
    Number(
      (await send(wallet.writeContract({
        address: info.builder,
        abi: compiled.abi,
        functionName: "build",
        args: [BigInt(first), BigInt(count)],
        gas: 2_900_000_000n,
        account,
        chain
      }))).blockNumber
    )
  return { anvil, info, head: Number(await client.getBlockNumber()), builderAbi: compiled.abi, buildMore }
}
