/**
 * The fresh-wallet round trip as transactions, and what its simulation shows. A new random address,
 * funded with native value only by state override (no holder is touched), buys through the router with
 * native funding; in the next block it reads its balance, approves the router and sells back its whole
 * balance (the router's WHOLE_BALANCE amount: exactly what it holds, decided when the sell runs). Both
 * blocks are one `eth_simulateV1` request. What was received is read from the token's Transfer events,
 * independently of `balanceOf`, so a token whose balance disagrees with its transfers is caught.
 */
import { randomBytes } from "node:crypto"
import {
  type Address,
  decodeEventLog,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  maxUint256,
  parseAbi,
  toEventSelector
} from "viem"
import type { SimCall, SimLog, SimResult } from "../../../layers/Simulator.js"
import {
  decodeRouterError,
  encodeExecute,
  planExecutedIn,
  planValue,
  type RouterPlan
} from "../../execution/RouterPlan.js"

/** Native value (wei) the fresh wallet holds beyond its buy: gas for three transactions, and then some. */
const GAS_BUDGET_WEI = 10n ** 20n

const transferTopic = toEventSelector("Transfer(address,address,uint256)")
const transferAbi = parseAbi(["event Transfer(address indexed from, address indexed to, uint256 value)"])

export const freshWallet = (): Address => `0x${randomBytes(20).toString("hex")}`

/** The wallet's native balance: what the buy sends plus gas. */
export const walletFunding = (buy: RouterPlan) => planValue(buy) + GAS_BUDGET_WEI

export const buyCall = (router: Address, wallet: Address, buy: RouterPlan): SimCall => ({
  from: wallet,
  to: router,
  data: encodeExecute(buy),
  value: planValue(buy)
})

/** Block 2 of the round trip: balance read, approval, sell of the whole balance. */
export const sellCalls = (router: Address, wallet: Address, token: Address, sell: RouterPlan): Array<SimCall> => [
  { from: wallet, to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [wallet] }) },
  {
    from: wallet,
    to: token,
    data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [router, maxUint256] }),
    gas: 200_000n
  },
  { from: wallet, to: router, data: encodeExecute(sell) }
]

/** Net amount of `token` the Transfer events of `logs` moved into `wallet`. */
export const transferredTo = (logs: ReadonlyArray<SimLog>, token: Address, wallet: Address): bigint => {
  let net = 0n
  for (const log of logs) {
    if (log.address.toLowerCase() !== token.toLowerCase() || log.topics[0] !== transferTopic) continue
    try {
      const { args } = decodeEventLog({ abi: transferAbi, data: log.data, topics: log.topics as [Hex, ...Array<Hex>] })
      if (args.to.toLowerCase() === wallet.toLowerCase()) net += args.value
      if (args.from.toLowerCase() === wallet.toLowerCase()) net -= args.value
    } catch {
      // A non-standard event under the Transfer topic moves nothing we can count.
    }
  }
  return net
}

/** Why a call failed, as readable as the revert data allows. */
export const failureOf = (result: SimResult): string => {
  const routerError = decodeRouterError(result.returnData)
  if (routerError !== undefined) return routerError.text
  return result.error ?? (result.returnData === "0x" ? "reverted without reason" : `reverted: ${result.returnData}`)
}

/** A 32-byte ABI bool `false`: a call that "succeeded" and says it did nothing. */
const returnedFalse = (result: SimResult) => result.returnData.length === 66 && BigInt(result.returnData) === 0n

export type BuyOutcome =
  | { readonly _tag: "BuyFailed"; readonly reason: string }
  | { readonly _tag: "Bought"; readonly received: bigint; readonly gasUsed: bigint }

export const readBuy = (router: Address, wallet: Address, token: Address, buy: SimResult): BuyOutcome => {
  if (!buy.ok || planExecutedIn(router, buy.logs) === undefined) return { _tag: "BuyFailed", reason: failureOf(buy) }
  return { _tag: "Bought", received: transferredTo(buy.logs, token, wallet), gasUsed: buy.gasUsed }
}

export type SellOutcome =
  | { readonly _tag: "SellFailed"; readonly balance: bigint | null; readonly reason: string }
  | {
    readonly _tag: "Sold"
    readonly balance: bigint
    /** Token that left the wallet by its Transfer events. */
    readonly sent: bigint
    /** USDC the wallet's balance rose by (the router's measurement). */
    readonly usdcOut: bigint
    readonly gasUsed: bigint
  }

export const readSell = (
  router: Address,
  wallet: Address,
  token: Address,
  [balanceRead, approve, sell]: ReadonlyArray<SimResult>
): SellOutcome => {
  const balance = balanceRead?.ok === true && balanceRead.returnData.length === 66
    ? BigInt(balanceRead.returnData)
    : null
  if (approve === undefined || !approve.ok) {
    return { _tag: "SellFailed", balance, reason: `approve failed: ${approve ? failureOf(approve) : "not run"}` }
  }
  if (returnedFalse(approve)) return { _tag: "SellFailed", balance, reason: "approve returned false" }
  if (sell === undefined || !sell.ok) {
    return { _tag: "SellFailed", balance, reason: sell ? failureOf(sell) : "sell not run" }
  }
  const executed = planExecutedIn(router, sell.logs)
  if (executed === undefined || balance === null) {
    return { _tag: "SellFailed", balance, reason: "sell did not report its execution" }
  }
  return {
    _tag: "Sold",
    balance,
    sent: -transferredTo(sell.logs, token, wallet),
    usdcOut: executed.amountOut,
    gasUsed: sell.gasUsed
  }
}
