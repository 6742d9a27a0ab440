/**
 * A private devnet with the service's layers on it, and a taker that trades as a wallet does: it asks
 * `quote`, `swap` and `swap/tx` (called as the operations the HTTP API and MCP serve, answers encoded
 * as they would be on the wire), signs typed data with its viem account and sends the returned
 * transactions exactly as given. Private, because these tests move prices.
 */
import { afterAll, beforeAll, expect } from "@effect/vitest"
import { type Clock, Effect, Schema } from "effect"
import { type Address, erc20Abi, getAddress, type Hex, parseAbi } from "viem"
import { decodeRequest } from "../../schema/Decode.js"
import type { TradeError } from "../../schema/Errors.js"
import { QuoteResponse } from "../../schema/Quote.js"
import { QuoteRequest } from "../../schema/QuoteRequest.js"
import { ReceiptRequest, ReceiptResponse } from "../../schema/Receipt.js"
import { SwapRequest, SwapResponse, SwapTxRequest } from "../../schema/Swap.js"
import { ChainIndex } from "../../src/indexer/ChainIndex.js"
import { quote } from "../../src/quote/Quote.js"
import { receipt } from "../../src/receipt/Receipt.js"
import { swap } from "../../src/swap/Swap.js"
import { swapTx } from "../../src/swap/SwapTx.js"
import { clientsFor, freshAccount, type PrivateDevnet, startDevnet, tokenAddress } from "../support/devnet.js"
import { indexRuntime, synced } from "../support/services.js"

export type Runtime = ReturnType<typeof indexRuntime>

export interface Harness {
  readonly devnet: PrivateDevnet
  readonly runtime: Runtime
  readonly stop: () => Promise<void>
}

export const startHarness = async (settings: Readonly<Record<string, string>> = {}): Promise<Harness> => {
  const devnet = await startDevnet()
  const runtime = indexRuntime(devnet.manifest, { settings })
  await runtime.runPromise(synced)
  return {
    devnet,
    runtime,
    stop: async () => {
      await runtime.dispose()
      await devnet.stop()
    }
  }
}

/**
 * The harness of a whole test file: started before its tests, stopped after them. The harness, its
 * operations and `trade` may be named at file level; they reach the started harness when a test calls them.
 */
export const harnessPerFile = (settings: Readonly<Record<string, string>> = {}) => {
  let started: Harness | undefined
  beforeAll(async () => {
    started = await startHarness(settings)
  })
  afterAll(() => started?.stop())
  const current = () => started ?? expect.fail("the file's harness has not started")
  const harness: Harness = {
    get devnet() {
      return current().devnet
    },
    get runtime() {
      return current().runtime
    },
    stop: () => current().stop()
  }
  const ops = operationsOf(() => harness.runtime)
  return { harness, ops, ...tradingWith(() => ops) }
}

type Outcome<A> = { readonly ok: true; readonly answer: A } | { readonly ok: false; readonly error: TradeError }

const outcome = <A, I>(schema: Schema.Schema<A, I>) => <R>(effect: Effect.Effect<A, TradeError, R>) =>
  effect.pipe(
    // the answer must encode as the OpenAPI document describes it
    Effect.tap((answer) => Effect.orDie(Schema.encode(schema)(answer))),
    Effect.map((answer): Outcome<A> => ({ ok: true, answer })),
    Effect.catchAll((error) => Effect.succeed<Outcome<A>>({ ok: false, error }))
  )

/**
 * The operations as a caller sees them; at `clock`'s time when given (else the real time). `runtime` may
 * be given as a function, read at each call (a file's harness that starts later).
 */
export const operationsOf = (runtime: Runtime | (() => Runtime), clock?: Clock.Clock) => {
  const runtimeNow = typeof runtime === "function" ? runtime : () => runtime
  const call = <I, A, IA>(
    request: Schema.Schema<I, any>,
    response: Schema.Schema<A, IA>,
    run: (input: I) => Effect.Effect<A, TradeError, any>
  ) =>
  (body: Record<string, unknown>) => {
    const called = decodeRequest(request)(body).pipe(Effect.flatMap(run), outcome(response)) as Effect.Effect<
      Outcome<A>
    >
    return runtimeNow().runPromise(clock === undefined ? called : Effect.withClock(called, clock))
  }
  return {
    quote: call(QuoteRequest, QuoteResponse, quote),
    // Called uncharged, as a free call (the payment tests pay over HTTP and MCP).
    swap: call(SwapRequest, SwapResponse, (request: SwapRequest) => swap(request, { charged: 0n })),
    swapTx: call(SwapTxRequest, SwapResponse, swapTx),
    receipt: call(ReceiptRequest, ReceiptResponse, receipt),
    /** Waits until the index has seen `block`. */
    indexed: (block: bigint) =>
      runtimeNow().runPromise(Effect.flatMap(ChainIndex, (index) => index.waitFor(Number(block))))
  }
}

export const answerOf = <A>(result: Outcome<A>): A => {
  if (!result.ok) throw new Error(`expected an answer, got ${result.error._tag}: ${result.error.message}`)
  return result.answer
}

export const errorOf = <A>(result: Outcome<A>): TradeError => {
  if (result.ok) throw new Error("expected an error, got an answer")
  return result.error
}

const depositAbi = parseAbi(["function deposit() payable"])

/**
 * A wallet with native USDC that sends what the service returns, as given. It also holds `feeUsdc` of
 * the ERC-20 USDC the swap fee is paid in (on Arc the two are one balance; on the devnet the ERC-20 is
 * minted by depositing native value).
 */
export const takerOn = async (harness: Harness, nativeUsdc = "100000", feeUsdc = 20n) => {
  const { devnet } = harness
  const signer = await freshAccount(devnet.manifest, nativeUsdc)
  const clients = clientsFor(devnet.manifest, signer)
  if (feeUsdc > 0n) {
    const hash = await clients.wallet.writeContract({
      account: signer,
      chain: clients.chain,
      address: tokenAddress(devnet.manifest, "USDC"),
      abi: depositAbi,
      functionName: "deposit",
      value: feeUsdc * 10n ** 18n
    })
    const { blockNumber } = await clients.public.waitForTransactionReceipt({ hash })
    // Quotes read the wallet at the index's block: it must have seen the deposit.
    await operationsOf(harness.runtime).indexed(blockNumber)
  }
  const send = async (tx: SwapResponse["transactions"][number]) => {
    const hash = await clients.wallet.sendTransaction({
      account: signer,
      chain: clients.chain,
      to: tx.to as Address,
      data: tx.data as Hex,
      value: BigInt(tx.value),
      gas: BigInt(tx.gas)
    })
    return clients.public.waitForTransactionReceipt({ hash })
  }
  /** Sends every transaction in order; all must mine successfully. */
  const sendAll = async (transactions: SwapResponse["transactions"]) => {
    const receipts = []
    for (const tx of transactions) {
      const receipt = await send(tx)
      if (receipt.status !== "success") throw new Error(`${tx.purpose} transaction reverted`)
      receipts.push(receipt)
    }
    return receipts
  }
  const balanceOf = (token: Address, owner: Address = signer.address) =>
    clients.public.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [owner] })
  const signPermit = (answer: SwapResponse) => signer.signTypedData(answer.signatures[0]!.typedData as never)
  /** The `permit` of a `swap/tx` request: the message `swap` issued and the taker's signature of it. */
  const permitFor = async (answer: SwapResponse) => ({
    message: answer.signatures[0]!.typedData.message,
    signature: await signPermit(answer)
  })
  return { account: signer, address: signer.address, clients, send, sendAll, balanceOf, signPermit, permitFor }
}

export type Taker = Awaited<ReturnType<typeof takerOn>>
type Operations = ReturnType<typeof operationsOf>

/** The taker's side of a trade, asserting what a user would check at each step. */
export const tradingWith = (opsOf: () => Operations) => {
  /**
   * Sends a swap answer's transactions and returns what `recipient` received of `token`; `receipt` for
   * those transactions must say `pass` with exactly that as `delivered`.
   */
  const execute = async (taker: Taker, answer: SwapResponse, token: Address, recipient: Address = taker.address) => {
    const ops = opsOf()
    const before = await taker.balanceOf(token, recipient)
    const receipts = await taker.sendAll(answer.transactions)
    await ops.indexed(receipts[receipts.length - 1]!.blockNumber)
    const delivered = (await taker.balanceOf(token, recipient)) - before
    const checked = answerOf(
      await ops.receipt({ quoteId: answer.quoteId, txHashes: receipts.map((receipt) => receipt.transactionHash) })
    )
    expect(checked).toMatchObject({
      result: "pass",
      delivered: delivered.toString(),
      minAmountOut: answer.minAmountOut
    })
    return delivered
  }

  /** quote → swap (→ sign → swap/tx) → send, for `taker`; returns the answers and what was delivered. */
  const trade = async (taker: Taker, request: Record<string, unknown>, swapOptions: Record<string, unknown> = {}) => {
    const ops = opsOf()
    const quoted = answerOf(await ops.quote({ ...request, taker: taker.address }))
    expect(quoted.next).toBe("swap")
    const built = answerOf(await ops.swap({ quoteId: quoted.quoteId, taker: taker.address, ...swapOptions }))
    let final = built
    if (built.next === "sign_permit") {
      final = answerOf(
        await ops.swapTx({
          quoteId: quoted.quoteId,
          taker: taker.address,
          ...(swapOptions["recipient"] === undefined ? {} : { recipient: swapOptions["recipient"] }),
          permit: await taker.permitFor(built)
        })
      )
    }
    const recipient = (swapOptions["recipient"] as Address | undefined) ?? taker.address
    const delivered = await execute(taker, final, getAddress(quoted.buy.address) as Address, recipient)
    return { quoted, built, final, delivered }
  }
  return { execute, trade }
}
