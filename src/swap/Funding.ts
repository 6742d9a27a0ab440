/**
 * How the taker pays for a swap, from its wallet as read at the current block: native value for a USDC
 * sell the native balance covers with the gas (no approval at all), unless the caller named its
 * `approval` flow; otherwise that flow's
 * approvals and, for Permit2, the permit still to sign. Then whether the wallet can pay: the sell
 * amount and the gas of every returned transaction, even to preview.
 */
import { Either } from "effect"
import { type Address, decodeFunctionData, encodeFunctionData, erc20Abi, type Hex, maxUint256 } from "viem"
import { NATIVE_PER_USDC_UNIT } from "../../schema/Chain.js"
import { InsufficientBalance } from "../../schema/Errors.js"
import { permitOf } from "../execution/Permit2.js"
import { Funding, type FundingCode, type PermitSingle } from "../execution/RouterPlan.js"
import { fundsNatively, permit2Covers, type TakerWallet } from "../execution/TakerWallet.js"
import { APPROVE_GAS, swapGasWeiOf } from "../quote/Readiness.js"

export interface FundingInput {
  readonly wallet: TakerWallet
  /** Whether native value may pay (the caller named no `approval`). */
  readonly allowNative: boolean
  readonly approval: "permit2" | "approve"
  readonly sellToken: Address
  readonly usdc: Address
  /** What the swap may take: exactIn the amount, exactOut the most it may spend. */
  readonly spend: bigint
  readonly router: Address
  readonly permit2: Address | undefined
  /** Unix seconds: the swap's deadline, and now. */
  readonly deadline: bigint
  readonly nowSec: number
  readonly gasUnits: bigint
  readonly gasPriceWei: bigint
  /** An open round's permit, reused when it still fits, so repeated swaps ask for one signature. */
  readonly openPermit: PermitSingle | undefined
}

export interface FundingChoice {
  readonly funding: FundingCode
  readonly approvals: ReadonlyArray<{ readonly to: Address; readonly data: Hex }>
  readonly permit: PermitSingle | undefined
}

const approveData = (spender: Address, amount: bigint) =>
  encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [spender, amount] })

/** Each approval preceded by one of 0 to the same spender: for tokens that refuse to change a non-zero allowance. */
export const resetFirst = (approvals: FundingChoice["approvals"]): FundingChoice["approvals"] =>
  approvals.flatMap((approval) => {
    const call = decodeFunctionData({ abi: erc20Abi, data: approval.data })
    return call.functionName === "approve"
      ? [{ to: approval.to, data: approveData(call.args[0], 0n) }, approval]
      : [approval]
  })

const permitFor = (input: FundingInput): PermitSingle | undefined => {
  const { openPermit, spend, wallet } = input
  if (permit2Covers(wallet.permit2, spend, Number(input.deadline))) return undefined
  const reusable = openPermit !== undefined && openPermit.details.nonce === wallet.permit2.nonce &&
    openPermit.details.amount === spend && openPermit.sigDeadline > input.deadline
  return reusable
    ? openPermit
    : permitOf({
      token: input.sellToken,
      amount: spend,
      nonce: wallet.permit2.nonce,
      spender: input.router,
      nowSec: input.nowSec
    })
}

export const chooseFunding = (input: FundingInput): Either.Either<FundingChoice, InsufficientBalance> => {
  const { spend, wallet } = input
  const swapGasWei = swapGasWeiOf(input.gasUnits, input.gasPriceWei)
  const native = input.allowNative && fundsNatively(wallet, input.sellToken === input.usdc, spend, swapGasWei)
  const choice: FundingChoice = native
    ? { funding: Funding.native, approvals: [], permit: undefined }
    : input.approval === "approve"
    ? {
      funding: Funding.approval,
      approvals: wallet.allowanceToRouter < spend
        ? [{ to: input.sellToken, data: approveData(input.router, spend) }]
        : [],
      permit: undefined
    }
    : {
      funding: Funding.permit2,
      approvals: wallet.allowanceToPermit2 < spend
        ? [{ to: input.sellToken, data: approveData(input.permit2!, maxUint256) }]
        : [],
      permit: permitFor(input)
    }

  const gasWei = swapGasWei + BigInt(choice.approvals.length) * APPROVE_GAS * input.gasPriceWei
  const nativeNeeded = gasWei + (native ? spend * NATIVE_PER_USDC_UNIT : 0n)
  if (!native && wallet.sellBalance < spend) {
    return Either.left(
      new InsufficientBalance({
        message: `the taker holds ${wallet.sellBalance} of the sell token and the swap needs ${spend} base units`
      })
    )
  }
  if (wallet.nativeWei < nativeNeeded) {
    return Either.left(
      new InsufficientBalance({
        message: `the taker holds ${wallet.nativeWei} wei of native USDC and needs ${nativeNeeded} wei for ${
          native ? "the amount and " : ""
        }gas`,
        hint: "gas on this chain is paid in native USDC"
      })
    )
  }
  return Either.right(choice)
}
