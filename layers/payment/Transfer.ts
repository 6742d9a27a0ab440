/**
 * The EIP-3009 `transferWithAuthorization` call that moves a payment, encoded as the x402 library sends
 * it (v, r, s for a 65-byte signature, the signature bytes otherwise): what a broadcast settlement sends
 * and what the quick verify simulates, so the two are the same call.
 */
import { eip3009ABI } from "@x402/evm"
import { encodeFunctionData, getAddress, type Hex, parseErc6492Signature, parseSignature } from "viem"
import type { PaymentPayload, PaymentRequirements } from "../../schema/Payment.js"

/**
 * Hex the payment's schema already checked (schema/Payment.ts: signature, nonce, payer), typed as viem
 * takes it. Those fields stay plain pattern strings there, which is how the OpenAPI document shows them.
 */
export const checkedHex = (text: string): Hex => text as Hex

/** A call the settlement key sends. */
export interface SettlementCall {
  readonly to: Hex
  readonly data: Hex
}

export const transferCall = (requirements: PaymentRequirements, payment: PaymentPayload): SettlementCall => {
  const { authorization, signature: signed } = payment.payload
  const { signature } = parseErc6492Signature(checkedHex(signed))
  const base = [
    getAddress(authorization.from),
    getAddress(authorization.to),
    BigInt(authorization.value),
    BigInt(authorization.validAfter),
    BigInt(authorization.validBefore),
    checkedHex(authorization.nonce)
  ] as const
  const ecdsa = signature.length === 132 ? parseSignature(signature) : undefined
  return {
    to: getAddress(requirements.asset),
    data: ecdsa === undefined
      ? encodeFunctionData({ abi: eip3009ABI, functionName: "transferWithAuthorization", args: [...base, signature] })
      : encodeFunctionData({
        abi: eip3009ABI,
        functionName: "transferWithAuthorization",
        args: [...base, Number(ecdsa.v ?? BigInt(ecdsa.yParity + 27)), ecdsa.r, ecdsa.s]
      })
  }
}
