/**
 * Whether a taker can carry out a quoted trade, read at the quote's block and reserving nothing:
 * balance, the approvals each funding flow still needs, gas, and whether the fee payer can pay the
 * swap fee. All reads go out together (the RPC transport batches them into one round trip).
 *
 * - `approval` (default permit2 flow): the sell token's ERC-20 allowance to Permit2 and Permit2's
 *   allowance (amount and expiry) for the router decide between `none`, `approve` (to Permit2),
 *   `sign_permit` and `approve_and_sign_permit`; a USDC sell the taker can fund with native value is `native`.
 * - `approve` (approve flow): the ERC-20 allowance to the router: `none` or `approve`; `native` as above.
 * - `gas`: native balance against the plan's estimated gas (plus an approval's when one is needed, plus
 *   the sell amount when funded by native value), at the quote's gas price.
 * - `fees`: the payer of `swap` pays its fee in ERC-20 USDC. The quote request names no payer, so the
 *   taker is assumed to pay; when it sells USDC by ERC-20 it needs the fee on top of the amount.
 */
import { Effect } from "effect"
import { formatUnits } from "viem"
import { type Address, NATIVE_PER_USDC_UNIT } from "../../schema/Chain.js"
import type { Readiness } from "../../schema/Readiness.js"
import { fundsNatively, permit2Covers, readTakerWallet } from "../execution/TakerWallet.js"
import { checksumOf } from "../routing/Checksum.js"

/** Gas of one ERC-20 `approve` from a fresh allowance slot, with headroom. */
export const APPROVE_GAS = 60_000n
/** The transaction's own base cost, outside the router's swaps. */
export const TX_BASE_GAS = 21_000n

/** The swap transaction's gas in wei: the plan's estimated units plus the transaction's own base cost. */
export const swapGasWeiOf = (gasUnits: bigint, gasPriceWei: bigint) => (gasUnits + TX_BASE_GAS) * gasPriceWei

export interface ReadinessInput {
  readonly taker: Address
  readonly sellToken: Address
  readonly usdc: Address
  /** The most the swap may take from the taker (exactOut: with slippage). */
  readonly amountIn: bigint
  readonly block: number
  readonly blockTime: number
  readonly router: Address | undefined
  readonly permit2: Address | undefined
  readonly gasUnits: bigint
  readonly gasPriceWei: bigint
  /** Price of the `swap` call, USDC base units. */
  readonly swapFee: bigint
}

const usdcText = (raw: bigint) => formatUnits(raw, 6)
const checksumOrNull = (address: Address | undefined) => (address === undefined ? null : checksumOf(address))
/** Wei to USDC base units, rounded up: a cost is never understated. */
const weiToUsdc = (wei: bigint) => (wei + NATIVE_PER_USDC_UNIT - 1n) / NATIVE_PER_USDC_UNIT

export const readReadiness = Effect.fn("Quote.readiness")(function*(input: ReadinessInput) {
  const address = input.taker
  const wallet = yield* readTakerWallet({
    taker: address,
    sellToken: input.sellToken,
    usdc: input.usdc,
    router: input.router,
    permit2: input.permit2,
    block: BigInt(input.block)
  })
  const { allowanceToPermit2: toPermit2, allowanceToRouter: toRouter, nativeWei, sellBalance } = wallet
  const usdcAvailable = wallet.usdcBalance
  const swapGasWei = swapGasWeiOf(input.gasUnits, input.gasPriceWei)
  const approveGasWei = APPROVE_GAS * input.gasPriceWei
  const sellsUsdc = input.sellToken === input.usdc
  const native = fundsNatively(wallet, sellsUsdc, input.amountIn, swapGasWei)
  const permitOk = input.router !== undefined && permit2Covers(wallet.permit2, input.amountIn, input.blockTime)
  const approvedPermit2 = toPermit2 >= input.amountIn
  const approvalNeeds = native
    ? "native" as const
    : approvedPermit2
    ? permitOk ? "none" as const : "sign_permit" as const
    : permitOk
    ? "approve" as const
    : "approve_and_sign_permit" as const
  const approveNeeds = native ? "native" as const : toRouter >= input.amountIn ? "none" as const : "approve" as const

  const balanceAvailable = native ? nativeWei / NATIVE_PER_USDC_UNIT : sellBalance
  const balanceOk = balanceAvailable >= input.amountIn
  const needsApproval = approvalNeeds === "approve" || approvalNeeds === "approve_and_sign_permit"
  const gasWei = swapGasWei + (needsApproval ? approveGasWei : 0n)
  const requiredWei = gasWei + (native ? input.amountIn * NATIVE_PER_USDC_UNIT : 0n)
  const feeNeed = input.swapFee + (sellsUsdc && !native ? input.amountIn : 0n)
  const feesOk = usdcAvailable >= feeNeed
  const readiness: Readiness = {
    ready: balanceOk && nativeWei >= requiredWei && feesOk,
    balance: {
      ok: balanceOk,
      token: checksumOf(input.sellToken),
      required: input.amountIn.toString(),
      available: balanceAvailable.toString()
    },
    approval: {
      needs: approvalNeeds,
      spender: checksumOrNull(
        approvalNeeds === "approve" || approvalNeeds === "approve_and_sign_permit"
          ? input.permit2
          : approvalNeeds === "sign_permit"
          ? input.router
          : undefined
      )
    },
    approve: {
      needs: approveNeeds,
      spender: checksumOrNull(approveNeeds === "approve" ? input.router : undefined)
    },
    gas: { ok: nativeWei >= requiredWei, requiredWei: requiredWei.toString(), availableWei: nativeWei.toString() },
    fees: {
      ok: feesOk,
      swapFeeUsdc: usdcText(input.swapFee),
      payer: checksumOf(address),
      availableUsdc: usdcText(usdcAvailable)
    },
    totalCostUsdc: usdcText(input.swapFee + weiToUsdc(gasWei))
  }
  return readiness
})
