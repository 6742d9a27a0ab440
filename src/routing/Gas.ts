/**
 * Gas as a cost in the traded token, so the optimiser can net it out: a split whose extra output is
 * smaller than its extra swaps' gas is worse than no split. Gas is paid in native USDC (18 decimals in
 * `gasPrice`), converted to ERC-20 USDC base units (6 decimals) and then to the token the objective is
 * counted in (the output token for exactIn, the input token for exactOut) at a price the caller gives.
 */
import { divRoundingUp } from "../math/FullMath.js"
import type { HopKind } from "../math/Hop.js"
import type { Path } from "./Path.js"

/** `tokenRaw` base units of the token are worth `usdcRaw` base units of USDC. */
export interface TokenPrice {
  readonly tokenRaw: bigint
  readonly usdcRaw: bigint
}

export interface GasModel {
  /** Gas of one swap through a pool of each kind, inside the router. */
  readonly perHop: Readonly<Record<HopKind, bigint>>
  /** What the router spends per path besides its swaps (moving and checking the path's tokens). */
  readonly perPath: bigint
  readonly gasPriceWei: bigint
  /** Price of the objective's token; null when unknown, and then gas is reported but not netted. */
  readonly tokenPrice: TokenPrice | null
}

/**
 * Gas per swap inside a router, from Uniswap's own gas snapshots (a v2 pair swap with its transfers, a
 * v3 swap crossing no tick, a v4 swap through the PoolManager) and the launchpad's buy; callers with
 * measured figures pass their own.
 */
export const defaultHopGas: Readonly<Record<HopKind, bigint>> = {
  v2: 65_000n,
  v3: 95_000n,
  v4: 80_000n,
  curve: 75_000n
}
export const defaultPathGas = 25_000n

/** Native wei (18 decimals) to USDC base units (6 decimals), rounded up: a cost is never understated. */
const WEI_PER_USDC_UNIT = 10n ** 12n

export const pathGasUnits = (model: GasModel, path: Path): bigint =>
  path.hops.reduce((sum, hop) => sum + model.perHop[hop.kind], model.perPath)

export const gasUsdcRaw = (model: GasModel, units: bigint): bigint =>
  divRoundingUp(units * model.gasPriceWei, WEI_PER_USDC_UNIT)

/** The gas of `units` in the objective's token base units; 0 without a price. */
export const gasInToken = (model: GasModel, units: bigint): bigint => {
  const price = model.tokenPrice
  if (price === null || price.usdcRaw <= 0n) return 0n
  return divRoundingUp(gasUsdcRaw(model, units) * price.tokenRaw, price.usdcRaw)
}
