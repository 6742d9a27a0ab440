/**
 * A private devnet whose index learns of a block only from the head read an operation makes at its
 * arrival (no pushed heads, a one-minute poll), with a liquidity provider funded to list and move
 * pools: a block mined right before a call is one the index has not seen when the call arrives.
 */
import type { Address } from "viem"
import { type Harness, startHarness } from "../swap/harness.js"
import { manifestAccount, tokenAddress } from "./devnet.js"
import { fundLiquidityProvider } from "./traps.js"
import { type Wallet, walletFor } from "./wallet.js"

export const ARRIVAL_ONLY = { WS_URL: "off", INDEXER_POLL_MS: "60000" }

export interface ArrivalOnly {
  readonly harness: Harness
  readonly lp: Wallet
  readonly usdc: Address
}

export const startArrivalOnly = async (): Promise<ArrivalOnly> => {
  const harness = await startHarness(ARRIVAL_ONLY)
  const lp = walletFor(harness.devnet.manifest, manifestAccount(harness.devnet.manifest, 2))
  await fundLiquidityProvider(harness.devnet.manifest, lp)
  return { harness, lp, usdc: tokenAddress(harness.devnet.manifest, "USDC") }
}
