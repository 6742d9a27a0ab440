/**
 * A round trip made by hand, as a wallet makes it: a buy with USDC and the sell-back of everything the
 * wallet then holds, through Uniswap's Router02 (v2 designs) or PoolSwapTest (v4 designs), with the
 * taxes in basis points as the service defines them (src/safety/check/Expected.ts): the buy's shortfall
 * against the pool's untaxed output, and the sell's shortfall between what the wallet sent and what the
 * pair recorded taking for Router02's swap (its `Swap` event, src/safety/check/PoolIntake.ts); on v4, the
 * least input the pool, as the buy left it, needed for the USDC that came out.
 */
import { type Address, getAddress, parseAbi } from "viem"
import type { Manifest } from "../../schema/Manifest.js"
import { swap } from "../../src/math/ConcentratedSwap.js"
import { getAmountIn, getAmountOut } from "../../src/math/ConstantProduct.js"
import { v4SwapFeePips } from "../../src/math/V4Fees.js"
import { bpsOf } from "../../src/safety/check/Expected.js"
import { pairIntake } from "../../src/safety/check/PoolIntake.js"
import { v4State } from "../router/poolState.js"
import { contractAddress } from "../support/devnet.js"
import { swapOnRouter02 } from "../support/router02.js"
import type { Wallet } from "../support/wallet.js"
import type { Listed } from "./deploy.js"
import { type HookedPool, swapOnPoolSwapTest } from "./v4Pools.js"

export interface RoundTrip {
  readonly bought: bigint
  /** What the wallet held when it sold (a reflection token's holder holds more than it bought). */
  readonly held: bigint
  readonly sent: bigint
  readonly usdcBack: bigint
  readonly buyTaxBps: number
  readonly sellTaxBps: number
  /** The sell's shortfall against the least input the pool, as the buy left it, needed for the USDC that
   * came out: the tax plus whatever moved the pool during the seller's transfer (a swap-back). */
  readonly sellCostBps: number
}

const shortfallBps = (expected: bigint, got: bigint) => bpsOf(expected > got ? expected - got : 0n, expected)

const reservesAbi = parseAbi(["function getReserves() view returns (uint112, uint112, uint32)"])

/** The pair's reserves as (token side, USDC side). */
export const reservesOf = async (wallet: Wallet, pair: Address, token: Address, usdc: Address) => {
  const [r0, r1] = await wallet.public.readContract({ address: pair, abi: reservesAbi, functionName: "getReserves" })
  return getAddress(token).toLowerCase() < usdc.toLowerCase() ? { token: r0, usdc: r1 } : { token: r1, usdc: r0 }
}

export const roundTripV2 = async (
  wallet: Wallet,
  router02: Address,
  usdc: Address,
  { token, pair }: Listed,
  usdcIn: bigint
): Promise<RoundTrip> => {
  const before = await reservesOf(wallet, pair!, token, usdc)
  const buy = await swapOnRouter02(wallet, router02, usdc, token, usdcIn)
  const untaxedOut = getAmountOut(usdcIn, before.usdc, before.token)
  const held = await wallet.balanceOf(token)
  const after = await reservesOf(wallet, pair!, token, usdc)
  const sell = await swapOnRouter02(wallet, router02, token, usdc, held)
  const leastIn = getAmountIn(sell.received, after.token, after.usdc) ?? sell.sent
  const intake = pairIntake(sell.receipt.logs, pair!, router02, token.toLowerCase() < usdc.toLowerCase())
  if (intake === undefined) throw new Error(`the pair recorded no swap by Router02 for ${token}`)
  return {
    bought: buy.received,
    held,
    sent: sell.sent,
    usdcBack: sell.received,
    buyTaxBps: shortfallBps(untaxedOut, buy.received),
    sellTaxBps: shortfallBps(sell.sent, intake),
    sellCostBps: shortfallBps(sell.sent, leastIn)
  }
}

const poolMath = async (manifest: Manifest, wallet: Wallet, pool: HookedPool, zeroForOne: boolean) => {
  const stateView = contractAddress(manifest, "v4StateView")
  const { state, protocolFee, lpFee } = await v4State(wallet, stateView, pool.id, pool.key.tickSpacing)
  const feePips = v4SwapFeePips(lpFee, protocolFee, zeroForOne)
  return (amountSpecified: bigint) => swap(state, { zeroForOne, amountSpecified, feePips })
}

export const roundTripV4 = async (
  manifest: Manifest,
  wallet: Wallet,
  usdc: Address,
  { token, pool }: Listed,
  usdcIn: bigint
): Promise<RoundTrip> => {
  const usdcIs0 = usdc.toLowerCase() === pool!.key.currency0.toLowerCase()
  const buyMath = await poolMath(manifest, wallet, pool!, usdcIs0)
  const buy = await swapOnPoolSwapTest(manifest, wallet, pool!, usdc, usdcIn)
  const held = await wallet.balanceOf(token)
  const sellMath = await poolMath(manifest, wallet, pool!, !usdcIs0)
  const sell = await swapOnPoolSwapTest(manifest, wallet, pool!, token, held)
  const leastIn = sell.received === 0n ? 0n : sellMath(-sell.received).amountIn
  return {
    bought: buy.received,
    held,
    sent: sell.sent,
    usdcBack: sell.received,
    buyTaxBps: shortfallBps(buyMath(usdcIn).amountOut, buy.received),
    sellTaxBps: shortfallBps(sell.sent, leastIn),
    sellCostBps: shortfallBps(sell.sent, leastIn)
  }
}
