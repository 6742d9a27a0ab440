/**
 * Wire primitives shared by every request and response.
 */
import { Schema } from "effect"
import { getAddress } from "viem"
import { USDC_ADDRESS } from "./Chain.js"

const ChecksummedText = Schema.TemplateLiteral("0x", Schema.String).pipe(Schema.brand("Checksummed"))

/** An address in its EIP-55 form, as a request holds it and an answer is built with it. */
export const checksummed = (address: string): Address => ChecksummedText.make(getAddress(address))

/**
 * An address on the wire: any case accepted, EIP-55 checksummed once decoded and in answers. Where the
 * service compares or keys it, `lowerAddress` (schema/Chain.ts) gives the chain's lower-case `Address`.
 */
export const Address = Schema.transform(
  Schema.String.pipe(
    Schema.pattern(/^0x[0-9a-fA-F]{40}$/, {
      message: () => "expected a 0x-prefixed 20-byte hex address"
    })
  ),
  ChecksummedText,
  { strict: true, decode: (hex) => getAddress(hex), encode: (address) => getAddress(address) }
).annotations({
  identifier: "Address",
  description: "EVM address; any case accepted, EIP-55 checksummed in answers",
  examples: [checksummed(USDC_ADDRESS)]
})
export type Address = typeof Address.Type

/** `0x` and whole bytes of hex, any case: calldata, signatures, keys. */
export const HexString = Schema.String.pipe(
  Schema.pattern(/^0x([0-9a-fA-F]{2})*$/, { message: () => "expected 0x-prefixed hex bytes" })
).annotations({ description: "0x-prefixed hex" })

/** A human-readable decimal amount in whole-token units, e.g. `"12.5"`. */
export const DecimalString = Schema.String.pipe(
  Schema.pattern(/^(0|[1-9][0-9]*)(\.[0-9]+)?$/, {
    message: () => "expected a non-negative decimal string such as \"12.5\""
  })
).annotations({
  identifier: "DecimalString",
  description: "non-negative decimal number as a string, in whole-token units",
  examples: ["1250.5"]
})

/** An integer amount in the token's base units, as a string on the wire. */
export const RawAmount = Schema.String.pipe(
  Schema.pattern(/^(0|[1-9][0-9]*)$/, { message: () => "expected a non-negative integer string" })
).annotations({
  identifier: "RawAmount",
  description: "non-negative integer in the token's base units, as a string",
  examples: ["1250500000"]
})

/** `q_` followed by lowercase hex. */
export const QuoteId = Schema.String.pipe(
  Schema.pattern(/^q_[0-9a-f]{16,64}$/, { message: () => "expected a quote id of the form q_<hex>" })
).annotations({
  identifier: "QuoteId",
  description: "quote id, `q_<hex>`",
  examples: ["q_0123456789abcdef0123456789abcdef"]
})

export const TxHash = Schema.String.pipe(
  Schema.pattern(/^0x[0-9a-fA-F]{64}$/, { message: () => "expected a 0x-prefixed 32-byte transaction hash" })
).annotations({ identifier: "TxHash" })

export const Network = Schema.String.annotations({
  description: "CAIP-2 network id, e.g. `eip155:5042`",
  examples: ["eip155:5042"]
})

export const BlockNumber = Schema.NonNegativeInt.annotations({ description: "block number" })

/** Basis points; fractional values are allowed where measurements are. */
export const Bps = Schema.Number.annotations({ description: "basis points (1/100 of a percent)" })

export const IsoDateTime = Schema.String.annotations({
  description: "ISO 8601 date-time, UTC",
  examples: ["2026-11-21T12:00:00.000Z"]
})
