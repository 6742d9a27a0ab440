/**
 * Receipt tests' shared pieces: a quote record with a built swap, as `swap` stores one; a taker that
 * holds ERC-20 USDC and has approved the router; and sending a router plan tagged with a quote id the
 * way a wallet would (mined even when it reverts, so a receipt can read the revert); and `receipt` asked
 * as a caller asks it.
 */
import { Effect, type ManagedRuntime, Schema } from "effect"
import { randomBytes } from "node:crypto"
import { type Address, encodeFunctionData, type Hex, maxUint256, parseAbi, type TransactionReceipt } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { QuoteStore } from "../../layers/QuoteStore.js"
import type { BuiltSwap, QuoteRecord } from "../../schema/QuoteRecord.js"
import { ReceiptRequest, ReceiptResponse } from "../../schema/Receipt.js"
import { encodeExecute, quoteTag, type RouterPlan } from "../../src/execution/RouterPlan.js"
import { receipt } from "../../src/receipt/Receipt.js"
import { makePlan } from "../router/support.js"
import { record } from "../support/quoteRecord.js"
import type { Wallet } from "../support/wallet.js"

export const newQuoteId = () => `q_${randomBytes(16).toString("hex")}`

/** A stored quote whose swap was built at `swap.block` for `swap.taker`; expired unless told otherwise. */
export const recordWith = (
  quoteId: string,
  fields: { readonly sell: string; readonly buy: string; readonly swap: BuiltSwap | null } & Partial<QuoteRecord>
): QuoteRecord => {
  const now = Date.now()
  // past its 120 s life: a receipt must still answer
  const base = record(quoteId, now - 80_000)
  return {
    ...base,
    createdAtMs: now - 200_000,
    block: fields.swap?.block ?? 1,
    request: { ...base.request, sell: fields.sell, buy: fields.buy },
    plan: { type: "direct", executable: true, edges: [] },
    amountOut: 1n,
    minAmountOut: 1n,
    gasUnits: 150_000n,
    attempts: { ...base.attempts, swapPaid: true },
    ...fields
  }
}

/** What `swap` records; `planHashes` are the plans it built (`planHashOf`), which alone count as fills. */
export const builtSwap = (
  fields: Partial<BuiltSwap> & Pick<BuiltSwap, "block" | "taker" | "planHashes">
): BuiltSwap => ({
  builtAtMs: Date.now() - 150_000,
  recipient: fields.taker,
  minAmountOut: 1n,
  amountOutSimulated: 1n,
  ...fields
})

export const putRecord = (record: QuoteRecord) => Effect.flatMap(QuoteStore, (store) => store.put(record))

export const storedRecord = (quoteId: string) =>
  Effect.flatMap(QuoteStore, (store) => store.get(quoteId)).pipe(
    Effect.map((found) => (found._tag === "Missing" ? undefined : found.record))
  )

const usdcAbi = parseAbi(["function deposit() payable"])

/** Wraps native USDC into ERC-20 USDC (1:10¹² from native value) and approves the router for all of it;
 * answers the approval's hash, which a receipt request lists beside the swap. */
export const fundTaker = async (wallet: Wallet, usdc: Address, router: Address, amount: bigint) => {
  const deposit = await wallet.wallet.sendTransaction({
    account: wallet.account,
    chain: wallet.chain,
    to: usdc,
    data: encodeFunctionData({ abi: usdcAbi, functionName: "deposit" }),
    value: amount * 10n ** 12n
  })
  await wallet.public.waitForTransactionReceipt({ hash: deposit })
  return (await wallet.approve(usdc, router, maxUint256)).transactionHash
}

/** A plan tagged with `quoteId`, as `swap` would build it. */
export const taggedPlan = (quoteId: string, fields: Parameters<typeof makePlan>[0]): RouterPlan =>
  makePlan({ ...fields, quoteTag: quoteTag(quoteId) })

/** Signs and sends `plan` to the router with fixed gas (no estimate: a reverting plan is still mined). */
export const sendTagged = (wallet: Wallet, router: Address, plan: RouterPlan): Promise<Hex> =>
  wallet.wallet.sendTransaction({
    account: wallet.account,
    chain: wallet.chain,
    to: router,
    data: encodeExecute(plan),
    gas: 1_500_000n
  })

export const mined = (wallet: Wallet, hash: Hex): Promise<TransactionReceipt> =>
  wallet.public.waitForTransactionReceipt({ hash })

/** A hash no node has seen. */
export const unknownHash = (): Hex => `0x${randomBytes(32).toString("hex")}`

/** An address nobody controls, for a recipient or a 7702 delegate. */
export const someAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address

/** `receipt` on `runtime`, its body decoded as the API decodes it and its answer encoded as it is served. */
export const askReceipt = (
  runtime: ManagedRuntime.ManagedRuntime<any, any>,
  body: { quoteId: string; txHashes: ReadonlyArray<string> }
) =>
  runtime.runPromise(
    Schema.decodeUnknown(ReceiptRequest)(body).pipe(
      Effect.orDie,
      Effect.flatMap(receipt),
      // the answer must encode as the OpenAPI document describes it
      Effect.tap((answer) => Effect.orDie(Schema.encode(ReceiptResponse)(answer)))
    )
  )
