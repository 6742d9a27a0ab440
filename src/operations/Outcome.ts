/**
 * What became of one call of an operation, as the interpreter (./Run.ts) hands it to an edge. Each edge
 * only writes it out: HTTP as a status, headers and a body; MCP as a tool result.
 */
import { Data, type Option } from "effect"
import type { PaymentDemanded, PaymentReceipt, PaymentRejected } from "../../layers/PaymentGate.js"
import type { Internal, PaymentUnavailable, TradeError } from "../../schema/Errors.js"

export type Outcome = Data.TaggedEnum<{
  /** The encoded answer and, when the call was paid, its settlement. */
  Answered: { readonly body: unknown; readonly receipt: Option.Option<PaymentReceipt> }
  /** The operation (or its price) failed: never charged. */
  Failed: { readonly error: TradeError }
  /** A paid call without a payment: the offer to pay. */
  Demanded: { readonly refusal: PaymentDemanded }
  /** The payment layer refused the payment sent: a fresh offer and the reason. */
  Rejected: { readonly refusal: PaymentRejected }
  /** The payment layer itself failed (facilitator unreachable, library error): nothing was charged. */
  GateFailed: { readonly error: PaymentUnavailable | Internal }
}>

export const Outcome = Data.taggedEnum<Outcome>()
