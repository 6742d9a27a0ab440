/**
 * Uniswap v4 fee encoding (`LPFeeLibrary`, `ProtocolFeeLibrary`). A pool whose `fee` field is the
 * dynamic flag gets its lp fee from its hook, so its fee is not a constant of the pool.
 */
/**
 * The fee a v4 swap charges, in pips: the lp fee, or with a protocol fee (12 bits per direction)
 * `protocolFee + lpFee − protocolFee·lpFee / 1e6` as `ProtocolFeeLibrary.calculateSwapFee` has it.
 */
export const v4SwapFeePips = (lpFee: number, protocolFee: number, zeroForOne: boolean): bigint => {
  const directional = BigInt(zeroForOne ? protocolFee & 0xfff : (protocolFee >> 12) & 0xfff)
  const lp = BigInt(lpFee)
  return directional === 0n ? lp : directional + lp - (directional * lp) / 1_000_000n
}
