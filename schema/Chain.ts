/**
 * The chain's vocabulary and the protocol constants that the contract, the service, the devnet and
 * the tests share, each defined here once.
 *
 * Addresses and hex are branded lower-case strings: `Hex` (any length) and `Address` (20 bytes, also a
 * `Hex`). Whatever comes from outside (a request, the venue file, the manifest, an RPC answer, a log)
 * is decoded into them once, at its boundary, so comparing two of them is plain `===` and the index
 * keys everything by them. Both are `0x${string}` too, so they flow into viem without a cast. The wire
 * `Address` (schema/Primitives.ts) is the EIP-55 form a request holds and an answer shows;
 * `lowerAddress` takes it into this one.
 * `RpcHex` is the schema the chain's JSON-RPC answers are decoded with where the case does not matter.
 */
import { Schema } from "effect"

const lowerHexText = Schema.TemplateLiteral("0x", Schema.String).pipe(
  Schema.pattern(/^0x[0-9a-f]*$/, { message: () => "expected 0x-prefixed hex" }),
  Schema.brand("Hex")
)

/** Lower-case `0x` hex: any case decodes, lower case comes out. Pool ids, hashes, calldata, addresses. */
export const Hex = Schema.transform(Schema.String, lowerHexText, {
  // The target checks the result, so the lower-casing needs no type of its own.
  strict: false,
  decode: (text) => text.toLowerCase(),
  encode: (hex) => hex
}).annotations({ identifier: "Hex" })
export type Hex = typeof Hex.Type

/** A lower-case 20-byte address, any case (checksummed or not) on input. */
export const Address = Hex.pipe(
  Schema.filter((hex) => hex.length === 42 || "expected a 0x-prefixed 20-byte hex address"),
  Schema.brand("Address")
).annotations({ identifier: "ChainAddress" })
export type Address = typeof Address.Type

/** `Hex` or `Address` from text of unknown shape (a search query, a token list's entry, a trace's keys), or none. */
export const hexOption = Schema.decodeUnknownOption(Hex)
export const addressOption = Schema.decodeUnknownOption(Address)

/**
 * The one unchecked way into `Hex`: text this service produced itself in hex form, such as a word the
 * indexer sliced out of a decoded log or a value viem computed. Checking it again would cost a pattern
 * test per log on a catch-up of millions; whatever comes from outside is decoded with `Hex` instead.
 */
export const lowerHex = (text: `0x${string}`): Hex => text.toLowerCase() as Hex

/** `lowerHex` for a 20-byte address the service produced itself (a topic's low 20 bytes, `getCreate2Address`). */
export const lowerAddress = (text: `0x${string}`): Address => text.toLowerCase() as Address

/**
 * Hex text kept in the case it was written, typed as viem takes it: for files read back as written
 * (the manifest, the venue file, checksummed) after their own pattern checked the text.
 */
export const asWritten = Schema.filter((text: string): text is `0x${string}` => text.startsWith("0x"))

/** `0x` hex as a node answers it and viem takes it (any case): quantities, data, hashes, addresses. */
export const RpcHex = Schema.TemplateLiteral("0x", Schema.String)
export type RpcHex = typeof RpcHex.Type

/** ERC-20 USDC: on Arc the token face of the native gas balance, on the devnet its own 6-decimal token. */
export const USDC_ADDRESS: Address = lowerAddress("0x3600000000000000000000000000000000000000")

/** The zero address; as a v4 pool currency it is native USDC. */
export const ZERO_ADDRESS: Address = lowerAddress("0x0000000000000000000000000000000000000000")

/** Native USDC (18 decimals) per ERC-20 USDC base unit (6 decimals). */
export const NATIVE_PER_USDC_UNIT = 10n ** 12n

/** Uniswap v4: the fee field of a pool key that marks a dynamic-fee pool (`LPFeeLibrary.DYNAMIC_FEE_FLAG`). */
export const DYNAMIC_FEE_FLAG = 0x800000

/** Uniswap v4: a hook's permissions are the low 14 bits of its address (`Hooks.sol`). */
export const HOOK_FLAG_MASK = 0x3fff
