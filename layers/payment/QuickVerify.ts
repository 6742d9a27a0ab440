/**
 * The in-process verify of `broadcast` mode for the common payer, a plain key (EOA) signing an
 * EIP-3009 authorization: the signature is recovered locally, and the two chain reads it needs (the
 * payer's code, to know it is not a contract, and `transferWithAuthorization` simulated at the head)
 * go out together, where the library asks them one after the other. Everything else (a smart wallet,
 * an ERC-6492 wrapper, a failed simulation, a node error) is handed to the library's verify, so every
 * refusal keeps its reason and every node failure its answer; only the accepting path is shortened.
 */
import { authorizationTypes } from "@x402/evm"
import { Effect, Either } from "effect"
import {
  getAddress,
  type Hex,
  isAddressEqual,
  parseErc6492Signature,
  publicActions,
  recoverTypedDataAddress
} from "viem"
import type { PaymentPayload, PaymentRequirements } from "../../schema/Payment.js"
import type { ChainWallet } from "../ChainRpc.js"
import type { Facilitator } from "./Facilitator.js"
import { transferCall } from "./Transfer.js"

// The library refuses an authorization ending within 6 s; the gate's own window is checked before.
const LIBRARY_MIN_VALIDITY_SEC = 6

const plainSignature = (payment: PaymentPayload) => {
  const signature = payment.payload.signature as Hex
  return signature.length === 132 && parseErc6492Signature(signature).address === undefined
}

const isEoa = (code: Hex | undefined) => code === undefined || code === "0x"

/** Whether the authorization's `from` signed it, recovered without the node. */
const signedByKey = (payment: PaymentPayload, requirements: PaymentRequirements, chainId: number) =>
  Effect.promise(async () => {
    const signature = payment.payload.signature as Hex
    const { authorization } = payment.payload
    const { name, version } = requirements.extra as { name?: string; version?: string }
    if (name === undefined || version === undefined) return false
    try {
      const signer = await recoverTypedDataAddress({
        domain: { name, version, chainId, verifyingContract: getAddress(requirements.asset) },
        types: authorizationTypes,
        primaryType: "TransferWithAuthorization",
        message: {
          from: getAddress(authorization.from),
          to: getAddress(authorization.to),
          value: BigInt(authorization.value),
          validAfter: BigInt(authorization.validAfter),
          validBefore: BigInt(authorization.validBefore),
          nonce: authorization.nonce as Hex
        },
        signature
      })
      return isAddressEqual(signer, getAddress(authorization.from))
    } catch {
      return false
    }
  })

export const quickVerify = (wallet: ChainWallet, library: Facilitator): Facilitator["verify"] => {
  const client = wallet.extend(publicActions)
  const chainId = wallet.chain.id
  // USDC's code does not go away: asked once, so a call never simulates against an empty address.
  const assetCode = new Map<string, Promise<boolean>>()
  const isContract = (asset: Hex) => {
    const known = assetCode.get(asset) ??
      client.getCode({ address: asset }).then((code) => code !== undefined && code !== "0x")
    assetCode.set(asset, known)
    known.catch(() => assetCode.delete(asset))
    return known
  }

  const quick: Facilitator["verify"] = (payment, requirements) => {
    const fallback = library.verify(payment, requirements)
    const from = getAddress(payment.payload.authorization.from)
    const nowSec = Math.floor(Date.now() / 1000)
    if (BigInt(payment.payload.authorization.validBefore) < BigInt(nowSec + LIBRARY_MIN_VALIDITY_SEC)) return fallback
    if (!plainSignature(payment)) return fallback
    const transfer = transferCall(requirements, payment)
    // The reads go out first, so the node answers while the signature is recovered here.
    const reads = Effect.tryPromise(() =>
      Promise.all([
        client.getCode({ address: from }),
        isContract(getAddress(requirements.asset)),
        client.call({ to: transfer.to, data: transfer.data })
      ])
    ).pipe(Effect.either, Effect.withSpan("PaymentVerify.reads"))
    const signature = Effect.withSpan(signedByKey(payment, requirements, chainId), "PaymentVerify.signature")
    return Effect.flatMap(
      Effect.all([reads, signature], { concurrency: "unbounded" }),
      ([read, signed]) =>
        signed && Either.isRight(read) && isEoa(read.right[0]) && read.right[1]
          ? Effect.succeed({ isValid: true, payer: from })
          : fallback
    )
  }
  // A field the library would refuse with its own reason (an address that does not parse) is its to answer.
  return (payment, requirements) =>
    Effect.suspend(() => quick(payment, requirements)).pipe(
      Effect.catchAllDefect(() => library.verify(payment, requirements))
    )
}
