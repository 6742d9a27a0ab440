/**
 * Protocol bytecode the bootstrap takes straight from npm packages, beside what
 * `scripts/compile-contracts.ts` copies into build/contracts: Permit2's creation code and Uniswap's
 * quoters and v4 StateView, all audited builds that must never be recompiled.
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import type { Abi, Hex } from "viem"

const require = createRequire(import.meta.url)

/** Canonical Permit2 and the salt it was deployed with through the deterministic deployer. */
export const PERMIT2_ADDRESS = "0x000000000022D473030F116dDEE9F6B43aC78BA3" as const
export const PERMIT2_SALT: Hex = "0x0000000000000000000000000000000000000000d3af2663da51c10215000000"
/** keccak256 of Permit2's runtime code on chain 5042. Its constructor bakes the chain id and domain
 * separator into immutables, so the hash is per chain; the canonical CREATE2 deployment on Arc
 * yields exactly this code, which is what a Permit2 check by code hash compares against. */
export const PERMIT2_CODE_HASH_5042: Hex = "0x05a793d6bdba8b8715c8f4cef0725ec3a961f567d33ebb2d360f541f19f70c8f"

export interface NpmArtifact {
  readonly abi: Abi
  readonly bytecode: Hex
}

export const npmArtifactFiles = {
  permit2: "hardhat-predeploy/bin/0x000000000022D473030F116dDEE9F6B43aC78BA3.bytecode",
  permit2Abi: "hardhat-predeploy/bin/0x000000000022D473030F116dDEE9F6B43aC78BA3.abi",
  v3Quoter: "@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json",
  v4Quoter: "@uniswap/v4-periphery/foundry-out/V4Quoter.sol/V4Quoter.json",
  v4StateView: "@uniswap/v4-periphery/foundry-out/StateView.sol/StateView.json",
  // Its version names the Multicall3 build it ships (see `multicall3CreationCode`).
  viem: "viem/package.json"
} as const

export const resolveNpm = (file: string): string => require.resolve(file)

/** hardhat-predeploy stores Permit2's creation code as raw bytes; deploying it with the canonical salt
 * reproduces the canonical address, which proves the code is the real one. */
export const permit2Artifact = (): NpmArtifact => ({
  abi: JSON.parse(readFileSync(resolveNpm(npmArtifactFiles.permit2Abi), "utf8")) as Abi,
  bytecode: `0x${readFileSync(resolveNpm(npmArtifactFiles.permit2)).toString("hex")}`
})

/** Multicall3's canonical address on every EVM chain that has it (Arc among them). */
export const MULTICALL3_ADDRESS = "0xcA11bde05977b3631167028862bE2a173976CA11" as const

/**
 * Multicall3's creation code as viem ships it for its deployless multicall. The package does not export
 * the constant, so it is read from the package's own module file.
 */
export const multicall3CreationCode = (): Hex => {
  const module = join(dirname(resolveNpm(npmArtifactFiles.viem)), "_esm", "constants", "contracts.js")
  const code = /multicall3Bytecode = ['"](0x[0-9a-fA-F]+)['"]/.exec(readFileSync(module, "utf8"))?.[1]
  if (code === undefined) throw new Error(`no Multicall3 bytecode in ${module}`)
  return code as Hex
}

/** Hardhat (`bytecode: "0x…"`), Waffle (`bytecode: "…"`) and Foundry (`bytecode: { object }`) layouts. */
const artifactAt = (file: string): NpmArtifact => {
  const json = JSON.parse(readFileSync(resolveNpm(file), "utf8")) as {
    abi: Abi
    bytecode: string | { object: string }
  }
  const code = typeof json.bytecode === "string" ? json.bytecode : json.bytecode.object
  return { abi: json.abi, bytecode: (code.startsWith("0x") ? code : `0x${code}`) as Hex }
}

export const npmArtifact = (name: "v3Quoter" | "v4Quoter" | "v4StateView"): NpmArtifact =>
  artifactAt(npmArtifactFiles[name])

/**
 * Uniswap v2's Router02, the reference the router is measured against (gas bench, differential tests).
 * Deployed beside the devnet, never by its bootstrap, so it stays out of `npmArtifactFiles` (the devnet
 * cache's digest). Constructor: (factory, WETH); it hard-codes the mainnet pair init code hash, which
 * the v2-core pair the devnet deploys has, so it finds the `uniswap-v2` venue's pairs and no fork's.
 */
export const v2Router02Artifact = (): NpmArtifact => artifactAt("@uniswap/v2-periphery/build/UniswapV2Router02.json")
