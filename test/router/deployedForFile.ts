/**
 * A private devnet for a test file that deploys contracts of its own on it: `deploy` runs once before
 * the file's tests with the devnet's env and the liquidity provider that deploys (trader 7); the
 * devnet stops after them, once the `stop` the deployment answers (a runtime on it, say) has run.
 */
import { type PrivateDevnet, startDevnet } from "../support/devnet.js"
import { forFile } from "../support/forFile.js"
import type { Wallet } from "../support/wallet.js"
import { type Env, envOf } from "./support.js"

export const deployedForFile = <A extends object>(
  deploy: (env: Env, lp: Wallet, devnet: PrivateDevnet) => Promise<A & { readonly stop?: () => Promise<unknown> }>,
  timeoutMs: number
) =>
  forFile(async () => {
    const devnet = await startDevnet()
    const env = envOf(devnet.manifest)
    const deployed = await deploy(env, env.trader(7), devnet).catch(async (error: unknown) => {
      await devnet.stop()
      throw error
    })
    return { ...deployed, devnet, env }
  }, async (started) => {
    await started.stop?.()
    await started.devnet.stop()
  }, timeoutMs)
