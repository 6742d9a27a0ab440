/**
 * Execution figures on a private automining devnet, the operations called in-process as the HTTP API and
 * MCP call them (request decoded, the whole operation run; payment is the gate's, measured in
 * `payment`):
 * - `swap` latency (re-pricing and the taker's simulation included) for fresh quotes in three flows: a
 *   USDC sell funded with native value, the approve flow and the Permit2 flow; and `swap/tx` latency
 *   for the Permit2 flow's signed permits. Nothing of these is sent, so every quote meets the same
 *   market.
 * - `receipt` latency: the first read of each mined swap (one per quote; the 5 s limit is per quote).
 * - gas used on chain per plan type (direct per venue, two-hop, split, graph): the mined swap's
 *   `gasUsed` next to the `gas` limit the service returned. Each kind of trade is sent both ways in
 *   turn, so prices come back to where they were.
 */
import { Effect, Either, Schema } from "effect"
import { type Address, formatUnits } from "viem"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { Deployment } from "../../layers/Deployment.js"
import { decodeRequest } from "../../schema/Decode.js"
import type { TradeError } from "../../schema/Errors.js"
import type { QuoteResponse } from "../../schema/Quote.js"
import { QuoteRequest } from "../../schema/QuoteRequest.js"
import { ReceiptRequest } from "../../schema/Receipt.js"
import { SwapRequest, SwapTxRequest } from "../../schema/Swap.js"
import { ChainIndex } from "../../src/indexer/ChainIndex.js"
import { quote } from "../../src/quote/Quote.js"
import { receipt } from "../../src/receipt/Receipt.js"
import { swap } from "../../src/swap/Swap.js"
import { swapTx } from "../../src/swap/SwapTx.js"
import { benchDevnet } from "./lib/devnet.js"
import { figure, latency, percentile } from "./lib/report.js"
import { indexRuntime } from "./lib/stack.js"
import { type BenchTaker, benchTaker, type Mined } from "./lib/taker.js"

const SWAPS_PER_FLOW = 100
const ROUNDS = 8

const devnet = await benchDevnet("execution")
const runtime = indexRuntime(Deployment.make(devnet.manifest), { INDEXER_POLL_MS: "20" })
const token = (label: string) => devnet.manifest.tokens![label]! as Address
const USDC = token("USDC")
const WETH = token("WETH")
const WBTC = token("WBTC")
const EURC = token("EURC")
const ORBIT = token("ORBIT")

/** An operation as the edges call it: the body decoded, then run; the answer or the error, and the time taken. */
const operation =
  <I, A>(request: Schema.Schema<I, any>, run: (input: I) => Effect.Effect<A, TradeError, any>) =>
  async (body: Record<string, unknown>) => {
    const started = performance.now()
    const result = await runtime.runPromise(
      Effect.either(decodeRequest(request)(body).pipe(Effect.flatMap(run))) as Effect.Effect<
        Either.Either<A, TradeError>
      >
    )
    const took = performance.now() - started
    if (Either.isLeft(result)) throw new Error(`${result.left._tag}: ${result.left.message}`)
    return { answer: result.right, took }
  }
const ops = {
  quote: operation(QuoteRequest, quote),
  swap: operation(SwapRequest, (request: SwapRequest) => swap(request, { charged: 0n })),
  swapTx: operation(SwapTxRequest, swapTx),
  receipt: operation(ReceiptRequest, receipt)
}
const indexed = (block: bigint) =>
  runtime.runPromise(Effect.flatMap(ChainIndex, (index) => index.waitFor(Number(block))))

/** What a plan is, for the gas table: direct plans by venue, graphs by their number of pool swaps. */
const kindOf = ({ best }: QuoteResponse) => {
  if (best.type === "direct") return `direct ${best.legs[0]?.hops[0]?.venue ?? "?"}`
  const swaps = best.graph?.edges.length
  if (best.type === "graph") return `graph, ${swaps} pool swap${swaps === 1 ? "" : "s"}`
  return best.type
}

/** swap (→ sign → swap/tx) for a quote; the final answer. */
const build = async (taker: BenchTaker, quoteId: string, options: Record<string, unknown> = {}) => {
  const built = await ops.swap({ quoteId, taker: taker.address, ...options })
  if (built.answer.next !== "sign_permit") return { built, final: built.answer, swapTx: null }
  const typedData = built.answer.signatures[0]!.typedData
  const signature = await taker.signPermit(typedData)
  const final = await ops.swapTx({ quoteId, taker: taker.address, permit: { message: typedData.message, signature } })
  return { built, final: final.answer, swapTx: final.took }
}

const swapLatency = { native: [] as Array<number>, approve: [] as Array<number>, permit2: [] as Array<number> }
const swapTxLatency: Array<number> = []
const receiptLatency: Array<number> = []
const gas = new Map<string, Array<{ used: bigint; limit: bigint }>>()

/** quote → swap (→ permit) → send every transaction → the receipt's first read; records gas by plan kind. */
const trade = async (taker: BenchTaker, request: Record<string, unknown>) => {
  const quoted = (await ops.quote({ ...request, taker: taker.address })).answer
  if (quoted.next !== "swap") {
    throw new Error(`quote answered stop: ${JSON.stringify({ safety: quoted.safety, readiness: quoted.readiness })}`)
  }
  const { built, final } = await build(taker, quoted.quoteId)
  const sent: Array<Mined> = []
  for (const tx of final.transactions) sent.push(await taker.send(tx))
  const swapTx = sent.find((tx) => tx.purpose === "swap")!
  const answer = await ops.receipt({ quoteId: quoted.quoteId, txHashes: sent.map((tx) => tx.hash) })
  receiptLatency.push(answer.took)
  if (answer.answer.result !== "pass") throw new Error(`receipt: ${answer.answer.result}`)
  // A permit swap also runs Permit2's `permit`; a native one wraps the value first.
  const flow = built.answer.next === "sign_permit" ? "Permit2" : BigInt(final.transactions.at(-1)!.value) > 0n
    ? "native"
    : "allowance"
  const kind = `${kindOf(quoted)}, ${flow}`
  gas.set(kind, [...(gas.get(kind) ?? []), { used: swapTx.gasUsed, limit: swapTx.gasLimit }])
  await indexed(swapTx.block)
  return formatUnits(BigInt(answer.answer.delivered), quoted.buy.decimals)
}

/** Buys with `request`, then sells what was delivered back the same way: prices end about where they began. */
const roundTrip = async (taker: BenchTaker, request: Record<string, unknown>) => {
  const delivered = await trade(taker, request)
  await trade(taker, { ...request, sell: request["buy"], buy: request["sell"], amount: delivered })
}

/** Quotes read wallets at the index's block: it must have seen the takers' funding. */
const synced = () =>
  runtime.runPromise(Effect.gen(function*() {
    const head = Number(yield* (yield* ChainRpc).request<string>("eth_blockNumber"))
    yield* (yield* ChainIndex).waitFor(head)
  }))

try {
  const buyer = await benchTaker(devnet.manifest, "5000000", 1_000n)
  const holder = await benchTaker(devnet.manifest, "100000", 1_000n)
  await synced()
  // The holder's WETH, EURC and WBTC to sell.
  await trade(holder, { sell: USDC, buy: WETH, amount: "30000", maxSplits: 4 })
  await trade(holder, { sell: USDC, buy: EURC, amount: "5000" })
  await trade(holder, { sell: USDC, buy: WBTC, amount: "5000" })
  receiptLatency.length = 0
  gas.clear()

  for (let i = 0; i < SWAPS_PER_FLOW; i++) {
    // A new size each time: a fresh quote and a fresh simulation.
    const native = (await ops.quote({ sell: USDC, buy: WETH, amount: `${100 + i}`, taker: buyer.address })).answer
    swapLatency.native.push((await ops.swap({ quoteId: native.quoteId, taker: buyer.address })).took)
    const size = `0.${String(1000 + i).padStart(4, "0")}`
    const approved = (await ops.quote({ sell: WETH, buy: USDC, amount: size, taker: holder.address })).answer
    const viaApprove = await ops.swap({ quoteId: approved.quoteId, taker: holder.address, approval: "approve" })
    swapLatency.approve.push(viaApprove.took)
    const permitted = (await ops.quote({ sell: WETH, buy: USDC, amount: size, taker: holder.address })).answer
    const viaPermit = await build(holder, permitted.quoteId)
    swapLatency.permit2.push(viaPermit.built.took)
    if (viaPermit.swapTx !== null) swapTxLatency.push(viaPermit.swapTx)
  }
  latency("swap, USDC sell funded natively", swapLatency.native)
  latency("swap, approve flow (WETH sell)", swapLatency.approve)
  latency("swap, Permit2 flow (WETH sell, sign_permit)", swapLatency.permit2)
  latency("swap/tx, Permit2 flow (signed permit)", swapTxLatency)

  const direct = (venue: string) => ({ venues: [venue], maxSplits: 1, maxHops: 1 })
  for (let round = 0; round < ROUNDS; round++) {
    const usd = `${400 + round}`
    for (const venue of ["uniswap-v2", "uniswap-v3", "uniswap-v4"]) {
      await roundTrip(buyer, { sell: USDC, buy: WETH, amount: usd, ...direct(venue) })
    }
    // Only v2 has a path through WETH to ORBIT, so the plan is two v2 swaps in a row.
    await roundTrip(buyer, { sell: USDC, buy: ORBIT, amount: usd, ...direct("uniswap-v2"), maxHops: 2 })
    await roundTrip(holder, { sell: WETH, buy: EURC, amount: `0.${1300 + round}`, maxSplits: 1 })
    await roundTrip(buyer, { sell: USDC, buy: WETH, amount: `${20_000 + round}`, maxSplits: 3 })
    // Large enough that the flow spreads over several pools (small ones go through one pool).
    await roundTrip(holder, { sell: WETH, buy: WBTC, amount: `1.${10 + round}`, maxSplits: 3 })
  }
  latency("receipt, first read of a mined swap", receiptLatency)
  for (const [kind, samples] of [...gas].sort(([a], [b]) => a.localeCompare(b))) {
    const used = samples.map((s) => Number(s.used)).sort((a, b) => a - b)
    const ratios = samples.map((s) => Number(s.used) / Number(s.limit)).sort((a, b) => a - b)
    figure(
      `gas, ${kind}`,
      `used p50 ${percentile(used, 50)} (${used[0]}–${used[used.length - 1]}), ` +
        `used/limit ${ratios[0]!.toFixed(2)}–${ratios[ratios.length - 1]!.toFixed(2)} (${samples.length} swaps)`
    )
  }
} finally {
  await runtime.dispose()
  await devnet.stop()
}
