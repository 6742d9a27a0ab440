/**
 * The chain's vocabulary and the protocol constants that the contract, the service, the devnet and
 * the tests share, each defined here once.
 *
 * Three address forms, each at its place: `Address` (schema/Primitives.ts) on the wire, checksummed
 * in answers; viem's `Address` (`0x${string}`, any case) at the boundaries that hand values to viem
 * (layers/, devnet/); and `Hex` below inside the service, where the index keys everything by it.
 * `RpcHex` is the schema the chain's JSON-RPC answers are decoded with (`layers/ChainRpc.ts`).
 */
import { Schema } from "effect"

/** Lower-case `0x` address or bytes32, as the index keys pools, tokens and transactions. */
export type Hex = string

/** `0x` hex as a node answers it and viem takes it (any case): quantities, data, hashes, addresses. */
export const RpcHex = Schema.TemplateLiteral("0x", Schema.String)
export type RpcHex = typeof RpcHex.Type

/** ERC-20 USDC: on Arc the token face of the native gas balance, on the devnet its own 6-decimal token. */
export const USDC_ADDRESS: `0x${string}` = "0x3600000000000000000000000000000000000000"

/** The zero address; as a v4 pool currency it is native USDC. */
export const ZERO_ADDRESS: `0x${string}` = "0x0000000000000000000000000000000000000000"

/** Native USDC (18 decimals) per ERC-20 USDC base unit (6 decimals). */
export const NATIVE_PER_USDC_UNIT = 10n ** 12n

/** Uniswap v4: the fee field of a pool key that marks a dynamic-fee pool (`LPFeeLibrary.DYNAMIC_FEE_FLAG`). */
export const DYNAMIC_FEE_FLAG = 0x800000

/** Uniswap v4: a hook's permissions are the low 14 bits of its address (`Hooks.sol`). */
export const HOOK_FLAG_MASK = 0x3fff
