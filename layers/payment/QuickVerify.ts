/**
 * The in-process verify of `broadcast` mode for the common payer, a plain key (EOA) signing an
 * EIP-3009 authorization: the signature is recovered locally, and the two chain reads it needs (the
 * payer's code, to know it is not a contract, and `transferWithAuthorization` simulated at the head)
 * go out together, where the library asks them one after the other, each at once on its own request
 * (`ChainRpc.readNow`): a batch would leave only after the signature's recovery has held the thread. Everything else (a smart wallet,
 * an ERC-6492 wrapper, a failed simulation, a node error) is handed to the library's verify, so every
 * refusal keeps its reason and every node failure its answer; only the accepting path is shortened.
 */
import { authorizationTypes } from "@x402/evm"
import { type Context, Effect, Either, Schema } from "effect"
import { getAddress, type Hex, isAddressEqual, parseErc6492Signature, recoverTypedDataAddress } from "viem"
import type { PaymentPayload, PaymentRequirements } from "../../schema/Payment.js"
import type { ChainRpc } from "../ChainRpc.js"
import type { Facilitator } from "./Facilitator.js"
import { checkedHex, transferCall } from "./Transfer.js"

// The library refuses an authorization ending within 6 s; the gate's own window is checked before.
const LIBRARY_MIN_VALIDITY_SEC = 6

const plainSignature = (payment: PaymentPayload) => {
  const signature = checkedHex(payment.payload.signature)
  return signature.length === 132 && parseErc6492Signature(signature).address === undefined
}

const isEoa = (code: string | undefined) => code === undefined || code === "0x"

/** Whether the authorization's `from` signed it, recovered without the node. */
const signedByKey = (payment: PaymentPayload, requirements: PaymentRequirements, chainId: number) =>
  Effect.promise(async () => {
    const signature = checkedHex(payment.payload.signature)
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
          nonce: checkedHex(authorization.nonce)
        },
        signature
      })
      return isAddressEqual(signer, getAddress(authorization.from))
    } catch {
      return false
    }
  })

const Bytes = Schema.String

export const quickVerify = (rpc: Context.Tag.Service<ChainRpc>, library: Facilitator): Facilitator["verify"] => {
  const chainId = rpc.chain.id
  const codeOf = (address: Hex) => rpc.readNow(Bytes, "eth_getCode", [address, "latest"])
  // USDC's code does not go away: asked once, so a call never simulates against an empty address.
  const assetCode = new Map<string, Promise<boolean>>()
  const isContract = (asset: Hex) => {
    const known = assetCode.get(asset) ?? Effect.runPromise(codeOf(asset)).then((code) => !isEoa(code))
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
    const reads = Effect.all([
      codeOf(from),
      Effect.tryPromise(() => isContract(getAddress(requirements.asset))),
      rpc.readNow(Bytes, "eth_call", [{ to: transfer.to, data: transfer.data }, "latest"])
    ], { concurrency: "unbounded" }).pipe(Effect.either, Effect.withSpan("PaymentVerify.reads"))
    // Recovering holds the thread for milliseconds: it waits one turn of the event loop, so the reads'
    // requests are written to their sockets first instead of after it.
    const signature = Effect.zipRight(
      Effect.async<void>((resume) => void setImmediate(() => resume(Effect.void))),
      Effect.withSpan(signedByKey(payment, requirements, chainId), "PaymentVerify.signature")
    )
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
