/**
 * EIP-712 shapes of USDC's signed transfers (EIP-3009), with the domain Arc's USDC uses.
 */
import type { Address } from "viem"

export type AuthorizationKind = "TransferWithAuthorization" | "ReceiveWithAuthorization"

export const usdcDomain = (chainId: number, verifyingContract: Address) =>
  ({ name: "USDC", version: "2", chainId, verifyingContract }) as const

export const authorizationTypes = (primaryType: AuthorizationKind) =>
  ({
    [primaryType]: [
      { name: "from", type: "address" },
      { name: "to", type: "address" },
      { name: "value", type: "uint256" },
      { name: "validAfter", type: "uint256" },
      { name: "validBefore", type: "uint256" },
      { name: "nonce", type: "bytes32" }
    ]
  }) as const
