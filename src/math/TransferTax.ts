/**
 * Fee-on-transfer tokens: a transfer of `value` delivers `value − floor(value·bps / 10⁴)`, the rounding
 * of real tax tokens (and of the devnet's TaxToken). Taxes are measured later by the safety simulation;
 * here they are inputs, so a route through a taxed token is priced for what actually arrives.
 */
import { divRoundingUp } from "./FullMath.js"

const BPS = 10_000n

/** What arrives when `value` is sent. */
export const afterTax = (value: bigint, taxBps: bigint): bigint => value - (value * taxBps) / BPS

/** Smallest amount to send so that at least `received` arrives; `undefined` for a 100 % tax. */
export const grossUp = (received: bigint, taxBps: bigint): bigint | undefined => {
  if (taxBps === 0n || received <= 0n) return received
  if (taxBps >= BPS) return undefined
  // ceil(received·B / (B − t)) always delivers enough; the floor in the tax can make a unit less do too.
  let sent = divRoundingUp(received * BPS, BPS - taxBps)
  while (sent > 0n && afterTax(sent - 1n, taxBps) >= received) sent -= 1n
  return sent
}
