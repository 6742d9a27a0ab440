/**
 * A whole trade for an agent, each step reported as it happens (`onStep`): quote (paid), refused unless
 * the verdict and flags pass the caller's policy (before the swap is paid for), swap (paid once per
 * quote), the Permit2 permit signed when the answer asks for it and `swap/tx` (free), every transaction
 * sent as returned, the service's index waited for, and the receipt asked until it is final. A swap
 * answered `quote_stale` or `quote_expired` carries a free replacement quote: it is judged by the same
 * policy and traded, once.
 */
import type { Address } from "viem"
import { type Paid, quoteOf, ServiceError } from "./Decoded.js"
import { refusalOf, type TradePolicy } from "./Policy.js"
import type {
  HealthResponse,
  QuoteInput,
  QuoteResponse,
  ReceiptInput,
  ReceiptResponse,
  SwapInput,
  SwapResponse,
  SwapTxInput
} from "./Types.js"
import type { PermitTypedData, Sent, TradeWallet } from "./Wallet.js"

export interface TradeRequest {
  readonly sell: string
  readonly buy: string
  /** Decimal string in whole tokens of `sell` (of `buy` with `side: "exactOut"`). */
  readonly amount: string
  readonly wallet: TradeWallet
  readonly policy?: TradePolicy
  readonly side?: QuoteInput["side"]
  readonly slippageBps?: number
  /** `permit2` (default) or `approve` for the ERC-20 flow; see the swap request. */
  readonly approval?: "permit2" | "approve"
  readonly onStep?: (step: TradeStep) => void
}

export type TradeStep =
  | { readonly step: "quote"; readonly quote: QuoteResponse; readonly paid: bigint; readonly settlement?: string }
  | { readonly step: "refused"; readonly reason: string }
  | { readonly step: "requote"; readonly code: string; readonly quote: QuoteResponse }
  | { readonly step: "swap"; readonly swap: SwapResponse; readonly paid: bigint; readonly settlement?: string }
  | { readonly step: "permit"; readonly typedData: PermitTypedData; readonly signature: string }
  | { readonly step: "swap_tx"; readonly swap: SwapResponse }
  | { readonly step: "sent"; readonly purpose: string; readonly gas: string; readonly sent: Sent }
  | { readonly step: "receipt"; readonly receipt: ReceiptResponse }

export interface TradeResult {
  /** `pass`: delivered at least `minAmountOut`; `stopped`: refused or told to stop before sending; `fail`. */
  readonly outcome: "pass" | "stopped" | "fail"
  readonly reason?: string
  readonly quote: QuoteResponse
  readonly receipt?: ReceiptResponse
  /** Base units of `buy` delivered (0 unless `pass`). */
  readonly delivered: bigint
  /** USDC base units this trade paid the service. */
  readonly paid: bigint
}

/** The calls a trade makes (the client's methods). */
export interface TradeCalls {
  readonly quote: (request: QuoteInput) => Promise<Paid<QuoteResponse>>
  readonly swap: (request: SwapInput) => Promise<Paid<SwapResponse>>
  readonly swapTx: (request: SwapTxInput) => Promise<Paid<SwapResponse>>
  readonly receipt: (request: ReceiptInput) => Promise<Paid<ReceiptResponse>>
  readonly health: () => Promise<Paid<HealthResponse>>
}

const charge = (answer: Paid<unknown>) => ({
  paid: answer.paid,
  ...(answer.settlement === undefined ? {} : { settlement: answer.settlement })
})

const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000))

export const tradeFlow = async (client: TradeCalls, request: TradeRequest): Promise<TradeResult> => {
  const report = request.onStep ?? (() => {})
  const taker = request.wallet.address
  let paid = 0n
  const counted = <A>(answer: Paid<A>) => {
    paid += answer.paid
    return answer
  }
  const end = (outcome: TradeResult["outcome"], quote: QuoteResponse, reason?: string): TradeResult => {
    if (outcome === "stopped" && reason !== undefined) report({ step: "refused", reason })
    return { outcome, quote, delivered: 0n, paid, ...(reason === undefined ? {} : { reason }) }
  }

  let quote = counted(
    await client.quote({
      sell: request.sell,
      buy: request.buy,
      amount: request.amount,
      taker,
      ...(request.side === undefined ? {} : { side: request.side }),
      ...(request.slippageBps === undefined ? {} : { slippageBps: request.slippageBps })
    })
  )
  report({ step: "quote", quote: quote.value, ...charge(quote) })
  const swapOf = async (quoteId: string) =>
    counted(
      await client.swap({
        quoteId,
        taker,
        ...(request.approval === undefined ? {} : { approval: request.approval })
      })
    )

  let refusal = refusalOf(quote.value, request.policy)
  if (refusal !== undefined) return end("stopped", quote.value, refusal)
  let built: Paid<SwapResponse>
  try {
    built = await swapOf(quote.value.quoteId)
  } catch (error) {
    const replacement = error instanceof ServiceError && error.body.next === "requote" ? error.body.quote : undefined
    if (!(error instanceof ServiceError) || replacement === undefined) throw error
    paid += error.paid
    quote = { value: quoteOf(replacement), paid: 0n, settlement: undefined }
    report({ step: "requote", code: error.body.error.code, quote: quote.value })
    refusal = refusalOf(quote.value, request.policy)
    if (refusal !== undefined) return end("stopped", quote.value, refusal)
    built = await swapOf(quote.value.quoteId)
  }
  report({ step: "swap", swap: built.value, ...charge(built) })

  let final = built.value
  if (final.next === "sign_permit") {
    const { typedData } = final.signatures[0]!
    const signature = await request.wallet.signTypedData(typedData)
    report({ step: "permit", typedData, signature })
    final = (await client.swapTx({
      quoteId: quote.value.quoteId,
      taker,
      permit: { message: typedData.message, signature }
    })).value
    report({ step: "swap_tx", swap: final })
  }
  if (final.next !== undefined) return end("stopped", quote.value, `the swap answered next: ${final.next}`)

  const hashes: Array<string> = []
  let last = 0n
  for (const transaction of final.transactions) {
    if (transaction.purpose === "swap_placeholder") return end("stopped", quote.value, "a placeholder is never sent")
    const sent = await request.wallet.send(transaction)
    report({ step: "sent", purpose: transaction.purpose, gas: transaction.gas, sent })
    hashes.push(sent.hash)
    last = sent.blockNumber
    if (sent.status !== "success") return end("fail", quote.value, `the ${transaction.purpose} transaction reverted`)
  }
  await untilIndexed(client, last)
  const receipt = await finalReceipt(client, quote.value.quoteId, hashes)
  report({ step: "receipt", receipt })
  return {
    outcome: receipt.result === "pass" ? "pass" : "fail",
    quote: quote.value,
    receipt,
    delivered: receipt.result === "pass" ? BigInt(receipt.delivered) : 0n,
    paid,
    ...(receipt.reason === null ? {} : { reason: receipt.reason })
  }
}

/** Waits until the service's index holds `block`: the next quote reads the wallet there. */
export const untilIndexed = async (client: Pick<TradeCalls, "health">, block: bigint) => {
  for (let attempt = 0; attempt < 600; attempt++) {
    const health = await client.health().catch(() => undefined)
    const at = health?.value.indexedBlock
    if (at !== undefined && at !== null && BigInt(at) >= block) return
    await sleep(0.05)
  }
  throw new Error(`the service's index did not reach block ${block}`)
}

/** Asks `receipt` until it is `pass` or `fail`, waiting what a `pending` answer (or a 429) says. */
const finalReceipt = async (client: TradeCalls, quoteId: string, txHashes: ReadonlyArray<string>) => {
  for (let attempt = 0; attempt < 20; attempt++) {
    const answer = await client.receipt({ quoteId, txHashes: txHashes as Array<Address> }).catch((error: unknown) => {
      if (error instanceof ServiceError && error.status === 429) return error.body.retryAfterSec ?? 5
      throw error
    })
    if (typeof answer === "number") await sleep(answer)
    else if (answer.value.result !== "pending") return answer.value
    else await sleep(answer.value.retryAfterSec ?? 5)
  }
  throw new Error("the receipt stayed pending")
}
