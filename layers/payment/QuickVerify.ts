/**
 * The in-process verify of `broadcast` mode for the common payer, a plain key (EOA) signing an
 * EIP-3009 authorization. Two chain reads decide it, sent together and each at once on its own request
 * (`ChainRpc.readNow`), where the library asks three things one after the other: the payer's code (no
 * code: USDC checks the signature by ECDSA recovery to `from`) and `transferWithAuthorization` simulated
 * at the head. The simulation is the signature check: USDC refuses the transfer unless `from` signed
 * exactly this authorization (contracts/token/SignedApprovals.sol, as Circle's v2.2), so a success there
 * proves the signature by the rule the settlement itself will meet, and recovering it here too would only
 * hold the thread that serves the answer for milliseconds. Everything else (a smart wallet, an ERC-6492
 * wrapper, a failed simulation, a node error) is handed to the library's verify, so every refusal keeps
 * its reason and every node failure its answer; only the accepting path is shortened.
 */
import { type Context, Effect, Either, Schema } from "effect"
import { getAddress, type Hex, parseErc6492Signature } from "viem"
import type { PaymentPayload } from "../../schema/Payment.js"
import type { ChainRpc } from "../ChainRpc.js"
import type { Facilitator } from "./Facilitator.js"
import { checkedHex, transferCall } from "./Transfer.js"

// The library refuses an authorization ending within 6 s; the gate's own window is checked before.
const LIBRARY_MIN_VALIDITY_SEC = 6

const plainSignature = (payment: PaymentPayload) => {
  const signature = checkedHex(payment.payload.signature)
  return signature.length === 132 && parseErc6492Signature(signature).address === undefined
}

const isEoa = (code: string) => code === "0x"

const Bytes = Schema.String

export const quickVerify = (rpc: Context.Tag.Service<ChainRpc>, library: Facilitator): Facilitator["verify"] => {
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
    return Effect.all([
      codeOf(from),
      Effect.tryPromise(() => isContract(getAddress(requirements.asset))),
      rpc.readNow(Bytes, "eth_call", [{ to: transfer.to, data: transfer.data }, "latest"])
    ], { concurrency: "unbounded" }).pipe(
      Effect.either,
      Effect.withSpan("PaymentVerify.reads"),
      Effect.flatMap((read) =>
        Either.isRight(read) && isEoa(read.right[0]) && read.right[1]
          ? Effect.succeed({ isValid: true, payer: from })
          : fallback
      )
    )
  }
  // A field the library would refuse with its own reason (an address that does not parse) is its to answer.
  return (payment, requirements) =>
    Effect.suspend(() => quick(payment, requirements)).pipe(
      Effect.catchAllDefect(() => library.verify(payment, requirements))
    )
}
