/**
 * The launchpad curves a request may trade through, as pools route search can price: the index keeps
 * each launched token's net flows, the launchpad's immutable constants turn them into the reserves the
 * contract prices from (`usdcReserve = virtualUsdc + usdcIn`, `tokenReserve = CURVE_SUPPLY − tokensOut`).
 */
import { HashMap, Option } from "effect"
import type { Hex } from "../../schema/Chain.js"
import type { IndexState } from "../indexer/State.js"
import type { CurvePool } from "../math/Hop.js"
import { curveTradable, type LaunchpadConstants } from "../math/LaunchpadCurve.js"
import { PRICE_SCALE } from "../pricing/Usd.js"

/**
 * Curve pools of `tokens` that are launched here, not graduated and still trading. A curve trades only
 * against USDC, so the pair's own tokens are the only ones whose curves a request can use directly.
 */
export const curvePoolsOf = (
  state: IndexState,
  launchpads: ReadonlyMap<string, LaunchpadConstants>,
  tokens: ReadonlyArray<Hex>,
  usdc: Hex
): ReadonlyArray<CurvePool> =>
  [...new Set(tokens)].flatMap((address) => {
    const facts = Option.getOrUndefined(HashMap.get(state.tokens, address))
    if (facts?.launchpad == null || facts.curve === null || facts.graduated) return []
    const constants = launchpads.get(facts.launchpad)
    if (constants === undefined) return []
    const curve = {
      usdcReserve: constants.virtualUsdc + facts.curve.usdcIn,
      tokenReserve: constants.curveSupply - facts.curve.tokensOut,
      virtualUsdc: constants.virtualUsdc,
      graduationUsdc: constants.graduationUsdc
    }
    if (!curveTradable(curve)) return []
    const [token0, token1] = usdc < address ? [usdc, address] : [address, usdc]
    return [{
      kind: "curve" as const,
      id: address,
      venue: facts.launchpad,
      token0,
      token1,
      usdc,
      token: address,
      curve
    }]
  })

/**
 * A curve token's USD price at the curve's margin (USDC base units are micro-dollars), for tokens no
 * pool prices yet: the order's USD size and gas netting then work for curve trades too.
 */
export const curvePrice = (curves: ReadonlyArray<CurvePool>, token: Hex): bigint | undefined => {
  const pool = curves.find((curve) => curve.token === token)
  return pool === undefined || pool.curve.tokenReserve === 0n
    ? undefined
    : (PRICE_SCALE * pool.curve.usdcReserve) / pool.curve.tokenReserve
}
