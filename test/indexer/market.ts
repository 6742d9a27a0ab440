/**
 * A plain viem client making market: a new ERC-20, its v2 pair with USDC, liquidity, swaps. What any
 * user of the chain could do, with no help from the service.
 */
import { type Account, type Address, type Hex, parseAbi, parseEther } from "viem"
import { loadArtifact } from "../../devnet/Artifacts.js"
import type { Manifest } from "../../schema/Manifest.js"
import { clientsFor, contractAddress } from "../support/devnet.js"
import { withHeadroom } from "../support/wallet.js"

const erc20 = parseAbi([
  "function transfer(address,uint256) returns (bool)",
  "function deposit() payable"
])
const factoryAbi = parseAbi([
  "function createPair(address,address) returns (address)",
  "function getPair(address,address) view returns (address)"
])
const pairAbi = parseAbi([
  "function mint(address) returns (uint256)",
  "function swap(uint256,uint256,address,bytes)",
  "function getReserves() view returns (uint112,uint112,uint32)",
  "function token0() view returns (address)"
])

export interface Listing {
  readonly token: Address
  readonly pair: Address
  /** Block of the liquidity mint: from here on the token is tradable. */
  readonly block: number
}

export interface MarketMaker {
  readonly listToken: (name: string, symbol: string, usdcLiquidity?: bigint) => Promise<Listing>
  /** Resolves with the block of the swap. */
  readonly buy: (pair: Address, usdcIn: bigint) => Promise<number>
}

export const marketMaker = (manifest: Manifest, account: Account): MarketMaker => {
  const { public: client, wallet } = clientsFor(manifest, account)
  const chain = client.chain
  const usdc = contractAddress(manifest, "usdc")
  const factory = contractAddress(manifest, "v2Factory")
  const send = async (hash: Promise<Hex>) => {
    const receipt = await client.waitForTransactionReceipt({ hash: await hash })
    if (receipt.status !== "success") throw new Error(`transaction ${receipt.transactionHash} reverted`)
    return receipt
  }
  const write = (
    address: Address,
    abi: typeof erc20 | typeof factoryAbi | typeof pairAbi,
    functionName: string,
    args: ReadonlyArray<unknown>,
    value?: bigint
  ) => {
    const call = { address, abi, functionName, args, account, chain, ...(value === undefined ? {} : { value }) }
    // viem's own estimate has no headroom: a swap estimated in one second and mined in the next can run out.
    return send(
      client.estimateContractGas(call as never).then((gas) =>
        wallet.writeContract({ ...call, gas: withHeadroom(gas) } as never)
      )
    )
  }

  /** Deploys `symbol`, pairs it with USDC on v2 and adds liquidity; resolves with the block of the mint. */
  const listToken = async (name: string, symbol: string, usdcLiquidity = 1_000n) => {
    const artifact = loadArtifact("DevToken")
    const deployed = await send(wallet.deployContract({
      abi: artifact.abi,
      bytecode: artifact.bytecode,
      args: [name, symbol, 18, parseEther("1000000")],
      account,
      chain
    }))
    const token = deployed.contractAddress! as Address
    await write(usdc, erc20, "deposit", [], parseEther(String(usdcLiquidity * 2n)))
    await write(factory, factoryAbi, "createPair", [token, usdc])
    const pair = await client.readContract({
      address: factory,
      abi: factoryAbi,
      functionName: "getPair",
      args: [token, usdc]
    })
    await write(token, erc20, "transfer", [pair, parseEther("10000")])
    await write(usdc, erc20, "transfer", [pair, usdcLiquidity * 10n ** 6n])
    const minted = await write(pair, pairAbi, "mint", [account.address])
    return { token, pair, block: Number(minted.blockNumber) }
  }

  /** Sells `usdcIn` USDC into `pair` for its other token at the pair's exact v2 price. */
  const buy = async (pair: Address, usdcIn: bigint) => {
    const [reserve0, reserve1] = await client.readContract({ address: pair, abi: pairAbi, functionName: "getReserves" })
    const token0 = await client.readContract({ address: pair, abi: pairAbi, functionName: "token0" })
    const usdcIs0 = token0.toLowerCase() === usdc.toLowerCase()
    const [reserveIn, reserveOut] = usdcIs0 ? [reserve0, reserve1] : [reserve1, reserve0]
    const out = (usdcIn * 997n * reserveOut) / (reserveIn * 1000n + usdcIn * 997n)
    await write(usdc, erc20, "transfer", [pair, usdcIn])
    const swapped = await write(pair, pairAbi, "swap", [usdcIs0 ? 0n : out, usdcIs0 ? out : 0n, account.address, "0x"])
    return Number(swapped.blockNumber)
  }

  return { listToken, buy }
}
