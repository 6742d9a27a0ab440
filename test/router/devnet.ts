/**
 * A router test file's private devnet (trades move prices, so files do not share one): started before
 * the file's tests and stopped after them, with the unit and pool helpers those files use.
 */
import { type Address, getAddress, parseUnits } from "viem"
import { poolByLabel, type PrivateDevnet, startDevnet } from "../support/devnet.js"
import { forFile } from "../support/forFile.js"
import type { Wallet } from "../support/wallet.js"
import { type Env, envOf } from "./support.js"

/**
 * Call once at a file's top level (see forFile). `deploy`, for a file with contracts of its own, runs
 * once the devnet is up, with the liquidity provider that deploys (trader 7): what it answers is read
 * beside the env (over it, where names meet), and a `stop` it answers runs before the devnet stops.
 */
export const routerDevnetWith = <A extends object>(
  deploy: (env: Env, lp: Wallet, devnet: PrivateDevnet) => Promise<A & { readonly stop?: () => Promise<unknown> }>,
  timeoutMs?: number
) =>
  forFile(async () => {
    const devnet = await startDevnet()
    const env = envOf(devnet.manifest)
    const deployed = await deploy(env, env.trader(7), devnet).catch(async (error: unknown) => {
      await devnet.stop()
      throw error
    })
    return { ...env, devnet, ...deployed }
  }, async (started) => {
    await started.stop?.()
    await started.devnet.stop()
  }, timeoutMs)

export const routerDevnet = (): Env => routerDevnetWith(async () => ({}))

export const usdc = (amount: string) => parseUnits(amount, 6)
export const ether = (amount: string) => parseUnits(amount, 18)

/** A seeded pool by its manifest label, and whether selling `tokenIn` into it swaps token0 for token1. */
export const poolsOf = (env: Env) => {
  const pool = (label: string) => poolByLabel(env.manifest, label)
  const zeroForOne = (label: string, tokenIn: Address) => getAddress(pool(label).token0) === getAddress(tokenIn)
  return { pool, zeroForOne }
}
