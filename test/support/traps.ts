/**
 * Adversarial tokens (contracts/safety/TrapToken.sol) on a private devnet, as a scammer would list
 * them: deployed by a liquidity provider, each in a plain v2 pair against USDC at 1 USDC per token with
 * $50,000 a side, the pair registered with the token as a pool.
 */
import { readFileSync } from "node:fs"
import { type Abi, type Address, getAddress, type Hex, parseAbi, parseEther, parseUnits } from "viem"
import { loadArtifact } from "../../devnet/Artifacts.js"
import type { Manifest } from "../../schema/Manifest.js"
import { clientsFor, contractAddress } from "./devnet.js"
import type { Wallet } from "./wallet.js"

const artifact = (name: string) =>
  JSON.parse(readFileSync(`build/contracts/${name}.json`, "utf8")) as { abi: Abi; bytecode: Hex }

export const trapAbi = parseAbi([
  "function setPool(address pool, bool enabled)",
  "function setSellsLocked(bool locked)"
])
const usdcAbi = parseAbi(["function deposit() payable"])

/** Gives `lp` the native and ERC-20 USDC to seed pools. */
export const fundLiquidityProvider = async (manifest: Manifest, lp: Wallet) => {
  await clientsFor(manifest).test.setBalance({ address: lp.address, value: parseEther("1000000") })
  await lp.write(contractAddress(manifest, "usdc"), usdcAbi, "deposit", [], parseEther("300000"))
}

export const deployTrap = async (lp: Wallet, name: string): Promise<Address> => {
  const { abi, bytecode } = artifact(name)
  const hash = await lp.wallet.deployContract({
    abi,
    bytecode,
    args: [parseUnits("1000000000", 18)],
    account: lp.account,
    chain: lp.chain
  } as never)
  const receipt = await lp.public.waitForTransactionReceipt({ hash })
  if (receipt.contractAddress == null) throw new Error(`${name} did not deploy`)
  return getAddress(receipt.contractAddress)
}

/**
 * A v2 pair of `a` and `b` seeded with `amountA` and `amountB`, registered as a pool with each of the two
 * that is not USDC; resolves with the pair and the block of the liquidity mint.
 */
export const seededPair = async (
  manifest: Manifest,
  lp: Wallet,
  [a, b]: readonly [Address, Address],
  [amountA, amountB]: readonly [bigint, bigint]
) => {
  const factory = contractAddress(manifest, "v2Factory")
  const usdc = contractAddress(manifest, "usdc")
  const factoryAbi = loadArtifact("UniswapV2Factory").abi
  await lp.write(factory, factoryAbi, "createPair", [a, b])
  const pair = (await lp.public.readContract({
    address: factory,
    abi: factoryAbi,
    functionName: "getPair",
    args: [a, b]
  })) as Address
  for (const token of [a, b]) if (token !== usdc) await lp.write(token, trapAbi, "setPool", [pair, true])
  await lp.transfer(a, pair, amountA)
  await lp.transfer(b, pair, amountB)
  const minted = await lp.write(pair, loadArtifact("UniswapV2Pair").abi, "mint", [lp.address])
  return { pair, block: Number(minted.blockNumber) }
}

/** The token's v2 pair with USDC, seeded with 50,000 of each. */
export const listWithPair = (manifest: Manifest, lp: Wallet, token: Address) =>
  seededPair(manifest, lp, [token, contractAddress(manifest, "usdc")], [
    parseUnits("50000", 18),
    parseUnits("50000", 6)
  ])

const pairAbi = parseAbi([
  "function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes data)",
  "function getReserves() view returns (uint112, uint112, uint32)",
  "function token0() view returns (address)"
])

/** A plain swap on `pair` by `lp`, as any wallet could; resolves with its block. */
export const movePrice = async (lp: Wallet, pair: Address, tokenIn: Address, amountIn: bigint) => {
  const [r0, r1] = await lp.public.readContract({ address: pair, abi: pairAbi, functionName: "getReserves" })
  const token0 = await lp.public.readContract({ address: pair, abi: pairAbi, functionName: "token0" })
  const inIsToken0 = getAddress(token0) === getAddress(tokenIn)
  const [reserveIn, reserveOut] = inIsToken0 ? [r0, r1] : [r1, r0]
  const out = (amountIn * 997n * reserveOut) / (reserveIn * 1_000n + amountIn * 997n)
  await lp.transfer(tokenIn, pair, amountIn)
  const swapped = await lp.write(
    pair,
    pairAbi,
    "swap",
    inIsToken0 ? [0n, out, lp.address, "0x"] : [out, 0n, lp.address, "0x"]
  )
  return Number(swapped.blockNumber)
}
