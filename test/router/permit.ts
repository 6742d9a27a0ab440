/** A taker's Permit2 PermitSingle for the router, signed as a wallet signs typed data. */
import type { Address, Hex } from "viem"
import type { Manifest } from "../../schema/Manifest.js"
import { permitOf, permitTypedData } from "../../src/execution/Permit2.js"
import type { PermitSingle } from "../../src/execution/RouterPlan.js"
import { contractAddress } from "../support/devnet.js"
import type { Wallet } from "../support/wallet.js"

/** A signed Permit2 PermitSingle for `spender`, as a wallet would sign the typed data `swap` issues. */
export const signPermit = async (
  wallet: Wallet,
  manifest: Manifest,
  details: { readonly token: Address; readonly amount: bigint; readonly nonce: number },
  spender: Address
): Promise<{ readonly permit: PermitSingle; readonly signature: Hex }> => {
  const permit = permitOf({ ...details, spender, nowSec: Math.floor(Date.now() / 1000) })
  const signature = await wallet.account.signTypedData(
    permitTypedData(manifest.chainId, contractAddress(manifest, "permit2"), permit) as never
  )
  return { permit, signature }
}
