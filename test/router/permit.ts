/** A taker's Permit2 PermitSingle for the router, signed as a wallet signs typed data. */
import type { Address, Hex } from "viem"
import type { Manifest } from "../../schema/Manifest.js"
import type { PermitSingle } from "../../src/execution/RouterPlan.js"
import { contractAddress } from "../support/devnet.js"
import type { Wallet } from "../support/wallet.js"

/** A signed Permit2 PermitSingle for `spender`, as a wallet would sign the typed data. */
export const signPermit = async (
  wallet: Wallet,
  manifest: Manifest,
  details: { readonly token: Address; readonly amount: bigint; readonly nonce: number },
  spender: Address
): Promise<{ readonly permit: PermitSingle; readonly signature: Hex }> => {
  const now = Math.floor(Date.now() / 1000)
  const permit: PermitSingle = {
    details: { token: details.token, amount: details.amount, expiration: now + 30 * 86_400, nonce: details.nonce },
    spender,
    sigDeadline: BigInt(now + 600)
  }
  const signature = await wallet.account.signTypedData({
    domain: { name: "Permit2", chainId: manifest.chainId, verifyingContract: contractAddress(manifest, "permit2") },
    types: {
      PermitDetails: [
        { name: "token", type: "address" },
        { name: "amount", type: "uint160" },
        { name: "expiration", type: "uint48" },
        { name: "nonce", type: "uint48" }
      ],
      PermitSingle: [
        { name: "details", type: "PermitDetails" },
        { name: "spender", type: "address" },
        { name: "sigDeadline", type: "uint256" }
      ]
    },
    primaryType: "PermitSingle",
    message: permit
  })
  return { permit, signature }
}
