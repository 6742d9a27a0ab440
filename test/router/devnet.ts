/**
 * A router test file's private devnet (trades move prices, so files do not share one): started before
 * the file's tests and stopped after them, with the unit and pool helpers those files use.
 */
import { type Address, getAddress, parseUnits } from "viem"
import { poolByLabel, startDevnet } from "../support/devnet.js"
import { forFile } from "../support/forFile.js"
import { type Env, envOf } from "./support.js"

/** Call once at a file's top level (see forFile). */
export const routerDevnet = (): Env =>
  forFile(async () => {
    const devnet = await startDevnet()
    return { ...envOf(devnet.manifest), devnet }
  }, ({ devnet }) => devnet.stop())

export const usdc = (amount: string) => parseUnits(amount, 6)
export const ether = (amount: string) => parseUnits(amount, 18)

/** A seeded pool by its manifest label, and whether selling `tokenIn` into it swaps token0 for token1. */
export const poolsOf = (env: Env) => {
  const pool = (label: string) => poolByLabel(env.manifest, label)
  const zeroForOne = (label: string, tokenIn: Address) => getAddress(pool(label).token0) === getAddress(tokenIn)
  return { pool, zeroForOne }
}
