/**
 * Everything a payment's admission reads from the node, in one `eth_call` to Multicall3 (at its
 * canonical address, on Arc as on the devnet): whether the payer and the asset have code (a code-size
 * probe placed by a state override, so no `eth_getCode` goes out beside it), for each of the payer's
 * calls not yet confirmed whether its authorization has landed (`authorizationState`; a landed one is
 * already out of the balance), the payer's balance, and, when given, the new call's
 * `transferWithAuthorization` simulated after them: the verify's simulation (./QuickVerify.ts) and the
 * coverage check are the same request. A failing transfer reverts the whole read: the library's verify
 * then says why.
 */
import {
  decodeAbiParameters,
  decodeFunctionResult,
  encodeAbiParameters,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  multicall3Abi,
  parseAbi
} from "viem"
import type { Unconfirmed } from "./ExposureBook.js"
import { checkedHex, type SettlementCall } from "./Transfer.js"

export const MULTICALL3 = "0xcA11bde05977b3631167028862bE2a173976CA11" as const

// Returns EXTCODESIZE of the address in its first calldata word: PUSH1 0 CALLDATALOAD EXTCODESIZE
// PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN. Placed for the one call only, at an address no contract holds.
const CODE_SIZE_PROBE = {
  address: "0x00000000000000000000000000000000c0de5123",
  code: "0x6000353b60005260206000f3"
} as const

/** The `eth_call` parameters: the call, the head, and the probe's state override. */
export const coverageParams = (call: SettlementCall) =>
  [call, "latest", { [CODE_SIZE_PROBE.address]: { code: CODE_SIZE_PROBE.code } }] as const

const authorizationAbi = parseAbi(["function authorizationState(address, bytes32) view returns (bool)"])

/**
 * The Multicall3 call: the payer's and the asset's code sizes, the pending calls' states, the balance,
 * then the new transfer when given.
 */
export const coverageCall = (
  asset: Hex,
  payer: Hex,
  pending: ReadonlyArray<Unconfirmed>,
  transfer?: SettlementCall
): SettlementCall => {
  const read = (callData: Hex) => ({ target: asset, allowFailure: false, callData })
  const codeSize = (address: Hex) => ({
    target: CODE_SIZE_PROBE.address,
    allowFailure: false,
    callData: encodeAbiParameters([{ type: "address" }], [address])
  })
  const calls = [
    codeSize(payer),
    codeSize(asset),
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
  /** The payer has code (a smart or EIP-7702 wallet): its signature is not for the quick path. */
  readonly payerHasCode: boolean
  /** The asset has code: without, every call to it "succeeds" and the simulation proves nothing. */
  readonly assetHasCode: boolean
  /** The payer's balance at the head, before the new call. */
  readonly balance: bigint
  /** What the payer's calls not landed at the head still take from it. */
  readonly owed: bigint
}

export const coverageOf = (answer: Hex, pending: ReadonlyArray<Unconfirmed>): Coverage => {
  const results = decodeFunctionResult({ abi: multicall3Abi, functionName: "aggregate3", data: answer })
  const hasCode = (i: number) => decodeAbiParameters([{ type: "uint256" }], results[i]!.returnData)[0] > 0n
  const [payerHasCode, assetHasCode] = [hasCode(0), hasCode(1)]
  // An asset without code answers nothing to decode: nothing is read.
  if (!assetHasCode) return { payerHasCode, assetHasCode, balance: 0n, owed: 0n }
  const landed = (i: number) =>
    decodeFunctionResult({
      abi: authorizationAbi,
      functionName: "authorizationState",
      data: results[2 + i]!.returnData
    })
  const owed = pending.reduce((total, entry, i) => (landed(i) ? total : total + entry.value), 0n)
  const balance = decodeFunctionResult({
    abi: erc20Abi,
    functionName: "balanceOf",
    data: results[2 + pending.length]!.returnData
  })
  return { payerHasCode, assetHasCode, balance, owed }
}

/** Covered: the balance pays every call not landed and the new one. */
export const covers = (coverage: Coverage, value: bigint) => coverage.balance >= coverage.owed + value
