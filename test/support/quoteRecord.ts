/** A stored quote of a direct USDC → token trade, for store tests and the store benchmark. */
import { lowerAddress, lowerHex } from "../../schema/Chain.js"
import type { QuoteRecord } from "../../schema/QuoteRecord.js"

export const record = (quoteId: string, expiresAtMs: number): QuoteRecord => ({
  quoteId,
  version: 0,
  createdAtMs: 0,
  expiresAtMs,
  block: 12,
  network: "eip155:5042",
  request: {
    sell: "0x3600000000000000000000000000000000000000",
    buy: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
    amount: "10",
    side: "exactIn",
    slippageBps: 100,
    ttlSec: 120,
    maxSplits: 3,
    maxHops: 2
  },
  sell: lowerAddress("0x3600000000000000000000000000000000000000"),
  buy: lowerAddress("0x5fbdb2315678afecb367f032d93f642f64180aa3"),
  side: "exactIn",
  plan: {
    type: "direct",
    executable: true,
    edges: [{
      path: 0,
      venue: "uniswap-v2",
      kind: "v2",
      poolId: lowerHex("0xabc"),
      tokenIn: lowerAddress("0x3600000000000000000000000000000000000000"),
      tokenOut: lowerAddress("0x5fbdb2315678afecb367f032d93f642f64180aa3"),
      amountIn: 10_000_000n,
      amountOut: 3_300_000_000_000_000n
    }]
  },
  amountIn: 10_000_000n,
  amountOut: 3_300_000_000_000_000n,
  minAmountOut: 3_267_000_000_000_000n,
  maxAmountIn: 10_000_000n,
  gasUnits: 90_000n,
  fallbacks: [],
  safety: null,
  orderUsdMicro: 10_000_000n,
  swapPrice: 10_000n,
  attempts: { swapFailures: 0, replacementIssued: false, swapPaid: false },
  permitRound: null,
  swap: null,
  receiptReads: { count: 0, lastAtMs: 0, final: null }
})
