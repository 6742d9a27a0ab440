/**
 * Lists the corpus (./corpus.ts) on a devnet as its designs are launched today: a deployer with USDC
 * deploys each token (the v2 designs create their USDC pair in their constructor), seeds its pool with
 * $50,000 a side at $1, opens trading where the template has a switch (a sniper bot buys in the launch
 * block) and, for the v2 designs, lets a small market of three wallets buy $4,000 each through Router02,
 * so the fee contracts hold more than their swap threshold and the dividend distributor has holders:
 * the state of a token a few hours after launch.
 */
import { type Address, getAddress, maxUint256, parseAbi, parseEther, parseUnits } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import type { Manifest } from "../../schema/Manifest.js"
import { clientsFor, contractAddress, freshAccount } from "../support/devnet.js"
import { deployRouter02, router02Abi, swapOnRouter02 } from "../support/router02.js"
import { type Wallet, walletFor } from "../support/wallet.js"
import { corpusArtifact, deployed } from "./artifacts.js"
import { type CorpusName, settings } from "./corpus.js"
import { type HookedPool, listBehindSellFeeHook } from "./v4Pools.js"

export interface Listed {
  readonly token: Address
  /** The v2 designs' USDC pair. */
  readonly pair?: Address
  /** The v4 designs' hooked pool. */
  readonly pool?: HookedPool
}

export interface Corpus {
  readonly router02: Address
  readonly usdc: Address
  /** Where the fee-selling designs and the hooks send their USDC. */
  readonly marketing: Address
  readonly listed: Readonly<Record<CorpusName, Listed>>
  /** A bot whose buy landed in the launch token's launch block. */
  readonly sniper: Wallet
  /** The block after which the corpus is as described. */
  readonly block: bigint
}

const depositAbi = parseAbi(["function deposit() payable"])
const pairAbi = parseAbi(["function mint(address to) returns (uint256)"])
const tokenAbi = parseAbi(["function pair() view returns (address)", "function openTrading()"])
const LAUNCH_BLOCKS = 5n

/** A fresh wallet holding `usdc` dollars of the ERC-20 USDC (and native value for gas). */
export const fundedWallet = async (manifest: Manifest, usdc: string) => {
  const wallet = walletFor(manifest, await freshAccount(manifest, `${Number(usdc) * 2 + 1_000}`))
  await wallet.write(contractAddress(manifest, "usdc"), depositAbi, "deposit", [], parseEther(usdc))
  return wallet
}

const seedPair = async (lp: Wallet, usdc: Address, token: Address) => {
  const pair = getAddress(await lp.public.readContract({ address: token, abi: tokenAbi, functionName: "pair" }))
  await lp.transfer(token, pair, parseUnits("50000", 18))
  await lp.transfer(usdc, pair, parseUnits("50000", 6))
  await lp.write(pair, pairAbi, "mint", [lp.address])
  return pair
}

/** Opens trading with a sniper's Router02 buy mined in the same block, as bots buy launches. */
const launchWithSniper = async (manifest: Manifest, lp: Wallet, token: Address, router02: Address) => {
  const usdc = contractAddress(manifest, "usdc")
  const sniper = await fundedWallet(manifest, "1000")
  await sniper.approve(usdc, router02, maxUint256)
  const { test } = clientsFor(manifest)
  await test.setAutomine(false)
  try {
    const opened = await lp.wallet.writeContract({
      account: lp.account,
      chain: lp.chain,
      address: token,
      abi: tokenAbi,
      functionName: "openTrading",
      gas: 100_000n
    })
    const sniped = await sniper.wallet.writeContract({
      account: sniper.account,
      chain: sniper.chain,
      address: router02,
      abi: router02Abi,
      functionName: "swapExactTokensForTokensSupportingFeeOnTransferTokens",
      args: [parseUnits("500", 6), 0n, [usdc, token], sniper.address, maxUint256],
      gas: 500_000n
    })
    await test.mine({ blocks: 1 })
    for (const hash of [opened, sniped]) {
      const receipt = await lp.public.waitForTransactionReceipt({ hash })
      if (receipt.status !== "success") throw new Error("the launch block did not go through")
    }
  } finally {
    await test.setAutomine(true)
  }
  await test.mine({ blocks: Number(LAUNCH_BLOCKS) })
  return sniper
}

export const deployCorpus = async (manifest: Manifest): Promise<Corpus> => {
  const usdc = contractAddress(manifest, "usdc")
  const factory = contractAddress(manifest, "v2Factory")
  const marketing = privateKeyToAccount(generatePrivateKey()).address
  const lp = await fundedWallet(manifest, "500000")
  const router02 = await deployRouter02(manifest, lp)
  const v2 = async (name: Parameters<typeof corpusArtifact>[0], args: ReadonlyArray<unknown>) => {
    const token = await deployed(lp, corpusArtifact(name), args)
    return { token, pair: await seedPair(lp, usdc, token) }
  }
  const { tax, reflection, dividend, poolBurn, launch } = settings
  const listedV2 = {
    tax: await v2("CorpusTaxToken", [router02, usdc, marketing, tax.buyFeeBps, tax.sellFeeBps]),
    reflection: await v2("CorpusReflectionToken", [
      router02,
      usdc,
      marketing,
      reflection.reflectionFeeBps,
      reflection.liquidityFeeBps
    ]),
    dividend: await v2("CorpusDividendToken", [router02, usdc, marketing, dividend.feeBps, dividend.distributorGas]),
    poolBurn: await v2("CorpusBurnToken", [factory, usdc, poolBurn.sellBurnBps, poolBurn.poolBurnBps]),
    launch: await v2("CorpusLaunchToken", [factory, usdc, marketing, launch.buyTaxBps, launch.sellTaxBps])
  }
  const sniper = await launchWithSniper(manifest, lp, listedV2.launch.token, router02)
  for (let i = 0; i < 3; i++) {
    const buyer = await fundedWallet(manifest, "20000")
    for (const { token } of Object.values(listedV2)) {
      await swapOnRouter02(buyer, router02, usdc, token, parseUnits("4000", 6))
    }
  }
  const hookFee = await listBehindSellFeeHook(manifest, lp, "CHOOK", settings.hookFee.sellFeeBps, marketing)
  const hookTrap = await listBehindSellFeeHook(manifest, lp, "CTRAP", settings.hookTrap.sellFeeBps, marketing)
  const block = await lp.public.getBlockNumber()
  return { router02, usdc, marketing, listed: { ...listedV2, hookFee, hookTrap }, sniper, block }
}
