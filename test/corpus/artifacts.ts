/** The corpus contracts' build artifacts (contracts/corpus/, compiled by scripts/compile-contracts.ts). */
import { readFileSync } from "node:fs"
import { type Abi, type Address, getAddress, type Hex } from "viem"
import type { Wallet } from "../support/wallet.js"

export type CorpusContract =
  | "CorpusTaxToken"
  | "CorpusReflectionToken"
  | "CorpusDividendToken"
  | "CorpusBurnToken"
  | "CorpusLaunchToken"
  | "CorpusSellFeeHook"

export const corpusArtifact = (name: CorpusContract): { abi: Abi; bytecode: Hex } => {
  const { abi, bytecode } = JSON.parse(readFileSync(`build/contracts/${name}.json`, "utf8")) as {
    abi: Abi
    bytecode: Hex
  }
  return { abi, bytecode }
}

/** Deploys `artifact` from `deployer`; fails unless the creation succeeded. */
export const deployed = async (
  deployer: Wallet,
  artifact: { readonly abi: Abi; readonly bytecode: Hex },
  args: ReadonlyArray<unknown>
): Promise<Address> => {
  const hash = await deployer.wallet.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args,
    account: deployer.account,
    chain: deployer.chain,
    gas: 8_000_000n
  } as never)
  const receipt = await deployer.public.waitForTransactionReceipt({ hash })
  if (receipt.status !== "success" || receipt.contractAddress == null) throw new Error("deployment reverted")
  return getAddress(receipt.contractAddress)
}
