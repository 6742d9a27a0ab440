/**
 * Gas limits of the transactions `swap` returns: what the same transaction used when simulated from
 * the taker's wallet at the current block, plus 30 % (pool state moves between simulation and mining:
 * a tick crossed, a slot first written). A permit swap also carries the Permit2 `permit` call, whose
 * cost the simulation measured as the equivalent Permit2 approval; signature recovery is on top.
 */
export const GAS_HEADROOM_PERCENT = 130n
/** ecrecover, the signature's calldata and Permit2's nonce check, beyond what an approval costs. */
export const PERMIT_SIGNATURE_GAS = 15_000n

export const gasLimit = (simulatedGas: bigint): bigint => (simulatedGas * GAS_HEADROOM_PERCENT + 99n) / 100n
