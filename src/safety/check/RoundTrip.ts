/**
 * The fresh-wallet round trip as transactions, and what its simulation shows. A new random address,
 * funded with native value only by state override (no holder is touched), buys through the router with
 * native funding; in a later block it reads its balance, approves the router and sells back its whole
 * balance (the router's WHOLE_BALANCE amount: exactly what it holds, decided when the sell runs).
 *
 * What moved is what the wallet's balance says moved, read around each trade in the same block, and a
 * Transfer event witnesses it: some contract's events (the token's own, or a second address that emits
 * for it) must show the same net amount into or out of the wallet. A balance no transfer witnesses is
 * a balance the token could be inventing.
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

/** A deadline far in the future, for plans that are simulated and never sent. */
export const SIMULATED_DEADLINE = 2n ** 40n

export const freshWallet = (): Address => `0x${randomBytes(20).toString("hex")}`

/** The wallet's native balance: what the buy sends plus gas. */
export const walletFunding = (buy: RouterPlan) => planValue(buy) + GAS_BUDGET_WEI

const buyCall = (router: Address, wallet: Address, buy: RouterPlan): SimCall => ({
  from: wallet,
  to: router,
  data: encodeExecute(buy),
  value: planValue(buy)
})

const balanceCall = (wallet: Address, token: Address): SimCall => ({
  from: wallet,
  to: token,
  data: encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [wallet] })
})

/** The buy between two balance reads. */
export const buyCalls = (router: Address, wallet: Address, token: Address, buy: RouterPlan): Array<SimCall> => [
  balanceCall(wallet, token),
  buyCall(router, wallet, buy),
  balanceCall(wallet, token)
]

/** The sell-back: balance read, approval, sell of the whole balance, balance read. */
export const sellCalls = (router: Address, wallet: Address, token: Address, sell: RouterPlan): Array<SimCall> => [
  balanceCall(wallet, token),
  {
    from: wallet,
    to: token,
    data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [router, maxUint256] }),
    gas: 200_000n
  },
  { from: wallet, to: router, data: encodeExecute(sell) },
  balanceCall(wallet, token)
]

/** Net amount each emitting contract's Transfer events in `logs` moved into `wallet`. */
const transfersTo = (logs: ReadonlyArray<SimLog>, wallet: Address): ReadonlyMap<string, bigint> => {
  const net = new Map<string, bigint>()
  const to = wallet.toLowerCase()
  for (const log of logs) {
    if (log.topics[0] !== transferTopic) continue
    try {
      const { args } = decodeEventLog({ abi: transferAbi, data: log.data, topics: log.topics as [Hex, ...Array<Hex>] })
      const moved = (args.to.toLowerCase() === to ? args.value : 0n) -
        (args.from.toLowerCase() === to ? args.value : 0n)
      const emitter = log.address.toLowerCase()
      net.set(emitter, (net.get(emitter) ?? 0n) + moved)
    } catch {
      // A non-standard event under the Transfer topic moves nothing we can count.
    }
  }
  return net
}

/** Whether some contract's Transfer events show exactly `amount` moving into the wallet (negative: out). */
const witnessed = (logs: ReadonlyArray<SimLog>, wallet: Address, amount: bigint) =>
  [...transfersTo(logs, wallet).values()].includes(amount)

const balanceOf = (result: SimResult | undefined): bigint | null =>
  result?.ok === true && result.returnData.length === 66 ? BigInt(result.returnData) : null

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
  | {
    readonly _tag: "Bought"
    /** The wallet's balance change across the buy. */
    readonly received: bigint
    /** Whether a Transfer event shows the same amount arriving. */
    readonly witnessed: boolean
    readonly gasUsed: bigint
  }

export const readBuy = (
  router: Address,
  wallet: Address,
  [before, buy, after]: ReadonlyArray<SimResult>
): BuyOutcome => {
  if (buy === undefined) return { _tag: "BuyFailed", reason: "buy not run" }
  if (!buy.ok || planExecutedIn(router, buy.logs) === undefined) return { _tag: "BuyFailed", reason: failureOf(buy) }
  const [from, to] = [balanceOf(before), balanceOf(after)]
  if (from === null || to === null) return { _tag: "BuyFailed", reason: "balanceOf could not be read around the buy" }
  const received = to - from
  return { _tag: "Bought", received, witnessed: witnessed(buy.logs, wallet, received), gasUsed: buy.gasUsed }
}

export type SellOutcome =
  | { readonly _tag: "SellFailed"; readonly balance: bigint | null; readonly reason: string }
  | {
    readonly _tag: "Sold"
    readonly balance: bigint
    /** Token that left the wallet: its balance change across the sell. */
    readonly sent: bigint
    /** Whether a Transfer event shows the same amount leaving. */
    readonly witnessed: boolean
    /** USDC the wallet's balance rose by (the router's measurement). */
    readonly usdcOut: bigint
    readonly gasUsed: bigint
    /** The sell's events: the pools' own record of what they took (./PoolIntake.ts). */
    readonly logs: ReadonlyArray<SimLog>
  }

export const readSell = (
  router: Address,
  wallet: Address,
  [balanceRead, approve, sell, afterRead]: ReadonlyArray<SimResult>
): SellOutcome => {
  const balance = balanceOf(balanceRead)
  if (approve === undefined || !approve.ok) {
    return { _tag: "SellFailed", balance, reason: `approve failed: ${approve ? failureOf(approve) : "not run"}` }
  }
  if (returnedFalse(approve)) return { _tag: "SellFailed", balance, reason: "approve returned false" }
  if (sell === undefined || !sell.ok) {
    return { _tag: "SellFailed", balance, reason: sell ? failureOf(sell) : "sell not run" }
  }
  const executed = planExecutedIn(router, sell.logs)
  const left = balanceOf(afterRead)
  if (executed === undefined || balance === null || left === null) {
    return { _tag: "SellFailed", balance, reason: "sell did not report its execution" }
  }
  const sent = balance - left
  return {
    _tag: "Sold",
    balance,
    sent,
    witnessed: witnessed(sell.logs, wallet, -sent),
    usdcOut: executed.amountOut,
    gasUsed: sell.gasUsed,
    logs: sell.logs
  }
}
