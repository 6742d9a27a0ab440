/**
 * A router test file's private devnet (trades move prices, so files do not share one): started before
 * the file's tests and stopped after them, with the unit and pool helpers those files use.
 */
import { afterAll, beforeAll } from "@effect/vitest"
import { type Address, getAddress, parseUnits } from "viem"
import { poolByLabel, type PrivateDevnet, startDevnet } from "../support/devnet.js"
import { type Env, envOf } from "./support.js"

/** Call once at a file's top level; the env it returns reads the devnet once `beforeAll` started it. */
export const routerDevnet = (): Env => {
  let devnet: PrivateDevnet | undefined
  let env: Env | undefined
  beforeAll(async () => {
    devnet = await startDevnet()
    env = envOf(devnet.manifest)
  })
  afterAll(() => devnet?.stop())
  const started = (): Env => {
    if (env === undefined) throw new Error("the router devnet is used before beforeAll started it")
    return env
  }
  return {
    get manifest() {
      return started().manifest
    },
    get router() {
      return started().router
    },
    get usdc() {
      return started().usdc
    },
    token: (label) => started().token(label),
    trader: (i) => started().trader(i)
  }
}

export const usdc = (amount: string) => parseUnits(amount, 6)
export const ether = (amount: string) => parseUnits(amount, 18)

/** A seeded pool by its manifest label, and whether selling `tokenIn` into it swaps token0 for token1. */
export const poolsOf = (env: Env) => {
  const pool = (label: string) => poolByLabel(env.manifest, label)
  const zeroForOne = (label: string, tokenIn: Address) => getAddress(pool(label).token0) === getAddress(tokenIn)
  return { pool, zeroForOne }
}
