/**
 * The operation table, second half: the operations after a quote (swap, swapTx, receipt), declared as
 * `table.ts` declares the rest and listed there in the table's order.
 */
import {
  CannotSell,
  InsufficientBalance,
  NoPendingSwap,
  NotExecutable,
  PaymentUnavailable,
  QuoteExpired,
  QuoteNotFound,
  QuoteStale,
  ReceiptRateLimited,
  ReceiptReadsExhausted,
  SwapAttemptsExhausted,
  SwapNotFound,
  SwapReverts
} from "../../schema/Errors.js"
import { ReceiptRequest, ReceiptResponse } from "../../schema/Receipt.js"
import { SwapRequest, SwapResponse, SwapTxRequest } from "../../schema/Swap.js"
import { receipt } from "../receipt/Receipt.js"
import { swap, SWAP_PRICE_RULE, swapCharge } from "../swap/Swap.js"
import { swapTx } from "../swap/SwapTx.js"
import { Cost } from "./Cost.js"
import { post } from "./Declare.js"

export const Swap = post({
  name: "swap",
  group: "trade",
  path: "/trade/v1/swap",
  summary:
    "Unsigned transactions for a live quote, re-simulated from the taker's wallet; paid once per quote, by order size",
  request: SwapRequest,
  description: "Turns a live quote into unsigned transactions for the taker's wallet, re-simulated from that " +
    "wallet: send them in order, approvals first, exactly as given. A sell through Permit2 first answers " +
    "`next: sign_permit` with the typed data to sign, and `swap/tx` returns the final transactions.",
  response: SwapResponse,
  errors: [
    QuoteNotFound,
    QuoteExpired,
    QuoteStale,
    SwapAttemptsExhausted,
    InsufficientBalance,
    SwapReverts,
    NotExecutable,
    CannotSell,
    PaymentUnavailable
  ],
  cost: Cost.fromInput(swapCharge, SWAP_PRICE_RULE),
  run: swap,
  tool: {
    description: "Turns a quote into UNSIGNED transactions for the taker's wallet to send (this service never signs " +
      "or sends). Send `transactions` one at a time in the order given (approvals first), exactly as given (to, " +
      "data, value, gas), each after the previous one mined. minAmountOut and amountOutSimulated are raw base " +
      "units of the buy token; a transaction's `value` is native USDC with 18 decimals. If next=sign_permit, " +
      "send nothing yet: sign signatures[0].typedData with the taker's wallet (EIP-712) and call tradeSwapTx, " +
      "which returns the transactions to send; never send a `swap_placeholder`. On quote_stale/quote_expired a " +
      "replacement `quote` may be included: review its price and verdict before using its quoteId."
  }
})

export const SwapTx = post({
  name: "swapTx",
  group: "trade",
  path: "/trade/v1/swap/tx",
  summary: "The final swap transaction for a signed Permit2 permit, once per permit round (free)",
  request: SwapTxRequest,
  description: "Only after `swap` answered `next: sign_permit`: takes the permit signed by the taker and answers " +
    "the final unsigned transactions, any approval still needed first. Works once per permit round.",
  response: SwapResponse,
  errors: [QuoteNotFound, QuoteExpired, QuoteStale, NoPendingSwap, SwapAttemptsExhausted, SwapReverts, CannotSell],
  cost: Cost.free,
  run: swapTx,
  tool: {
    description:
      "Only after tradeSwap answered next=sign_permit: finishes the swap with the taker's permit. Send the " +
      "same quoteId, taker (and recipient, if tradeSwap had one) and permit = { message: " +
      "signatures[0].typedData.message exactly as tradeSwap returned it, signature: the taker wallet's EIP-712 " +
      "signature of signatures[0].typedData (0x hex) }. Answers the final unsigned transactions, any approval " +
      "still needed first: send them in that order from the taker's wallet, exactly as given. Works once per permit."
  }
})

export const Receipt = post({
  name: "receipt",
  group: "trade",
  path: "/trade/v1/receipt",
  summary: "After sending the swap: pass (delivered >= minAmountOut), pending or fail, read from the chain (free)",
  request: ReceiptRequest,
  description: "After the transactions were sent: reads them from the chain and answers `pass` (delivered at " +
    "least `minAmountOut`), `pending` (ask again after `retryAfterSec`) or `fail`, amounts in base units " +
    "of the buy token. Answers for one hour after `swap`.",
  response: ReceiptResponse,
  errors: [SwapNotFound, ReceiptRateLimited, ReceiptReadsExhausted],
  cost: Cost.free,
  run: receipt,
  tool: {
    description: "After sending the transactions: pass the quoteId and the hashes of all you sent for it, " +
      "approvals and swap (1 to 4, sent by the taker's own wallet; smart-contract and delegated wallets are " +
      "refused). Answers pass (delivered >= minAmountOut, both raw base units of the buy token), pending or " +
      "fail. next=retry while pending (wait retryAfterSec; one chain read per quote every 5 s, 132 in all); " +
      "after a failure next=requote (nothing filled) or stop (a swap filled: do not send it again). Works for " +
      "one hour after tradeSwap."
  }
})
