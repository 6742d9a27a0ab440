/**
 * Readiness of a taker for a quoted trade, read at the quote's block; present only when `taker` was sent.
 */
import { Schema } from "effect"
import { Address, DecimalString, RawAmount } from "./Primitives.js"

export const Readiness = Schema.Struct({
  ready: Schema.Boolean,
  balance: Schema.Struct({
    ok: Schema.Boolean,
    token: Address,
    required: RawAmount,
    available: RawAmount
  }),
  approval: Schema.Struct({
    needs: Schema.Literal("none", "approve", "sign_permit", "approve_and_sign_permit", "native"),
    spender: Schema.NullOr(Address)
  }).annotations({ description: "for the default permit2 flow" }),
  approve: Schema.Struct({
    needs: Schema.Literal("approve", "none", "native"),
    spender: Schema.NullOr(Address)
  }).annotations({ description: "for the `approve` flow" }),
  gas: Schema.Struct({
    ok: Schema.Boolean,
    requiredWei: RawAmount,
    availableWei: RawAmount
  }),
  fees: Schema.Struct({
    ok: Schema.Boolean,
    swapFeeUsdc: DecimalString,
    payer: Schema.NullOr(Address),
    availableUsdc: Schema.NullOr(DecimalString)
  }),
  totalCostUsdc: DecimalString.annotations({ description: "swap fee plus estimated gas" })
}).annotations({ identifier: "Readiness" })
export type Readiness = typeof Readiness.Type
