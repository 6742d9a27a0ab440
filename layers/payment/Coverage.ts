/**
 * Whether a payer's USDC at the head covers every call of it not yet confirmed plus the new one: one
 * `eth_call` to Multicall3 (at its canonical address, on Arc as on the devnet) that reads, for each
 * unconfirmed call, whether its authorization has landed (`authorizationState`; a landed one is already
 * out of the balance), the payer's balance, and, when given, simulates the new call's
 * `transferWithAuthorization` after them, so the check rides on the same simulation that verifies the
 * payment (./QuickVerify.ts). A failing transfer reverts the whole read: the library's verify then
 * says why.
 */
import { decodeFunctionResult, encodeFunctionData, erc20Abi, getAddress, type Hex, multicall3Abi, parseAbi } from "viem"
import type { Unconfirmed } from "./Exposure.js"
import { checkedHex, type SettlementCall } from "./Transfer.js"

export const MULTICALL3 = "0xcA11bde05977b3631167028862bE2a173976CA11" as const

const authorizationAbi = parseAbi(["function authorizationState(address, bytes32) view returns (bool)"])

/** The Multicall3 call: the pending calls' states, the balance, then the new transfer when given. */
export const coverageCall = (
  asset: Hex,
  payer: Hex,
  pending: ReadonlyArray<Unconfirmed>,
  transfer?: SettlementCall
): SettlementCall => {
  const read = (callData: Hex) => ({ target: asset, allowFailure: false, callData })
  const calls = [
    ...pending.map((entry) =>
      read(encodeFunctionData({
        abi: authorizationAbi,
        functionName: "authorizationState",
        args: [payer, checkedHex(entry.nonce)]
      }))
    ),
    read(encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [payer] })),
    ...(transfer === undefined ? [] : [{ target: transfer.to, allowFailure: false, callData: transfer.data }])
  ]
  return {
    to: getAddress(MULTICALL3),
    data: encodeFunctionData({ abi: multicall3Abi, functionName: "aggregate3", args: [calls] })
  }
}

export interface Coverage {
  /** The payer's balance at the head, before the new call. */
  readonly balance: bigint
  /** What the payer's calls not landed at the head still take from it. */
  readonly owed: bigint
}

export const coverageOf = (answer: Hex, pending: ReadonlyArray<Unconfirmed>): Coverage => {
  const results = decodeFunctionResult({ abi: multicall3Abi, functionName: "aggregate3", data: answer })
  const landed = (i: number) =>
    decodeFunctionResult({ abi: authorizationAbi, functionName: "authorizationState", data: results[i]!.returnData })
  const owed = pending.reduce((total, entry, i) => (landed(i) ? total : total + entry.value), 0n)
  const balance = decodeFunctionResult({
    abi: erc20Abi,
    functionName: "balanceOf",
    data: results[pending.length]!.returnData
  })
  return { balance, owed }
}

/** Covered: the balance pays every call not landed and the new one. */
export const covers = (coverage: Coverage, value: bigint) => coverage.balance >= coverage.owed + value
