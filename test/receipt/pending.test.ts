/**
 * `receipt` while the swap waits in the mempool, on a private devnet with mining paused (the shared one
 * must keep mining for everyone else): a sent but unmined swap, and a hash the node has never seen,
 * are pending with `next: retry`; once the block is mined the same swap passes.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { ManagedRuntime } from "effect"
import type { Hex } from "viem"
import { lowerAddress } from "../../schema/Chain.js"
import { planHashOf } from "../../src/execution/RouterPlan.js"
import { type Env, envOf, poolStep } from "../router/support.js"
import { type PrivateDevnet, startDevnet } from "../support/devnet.js"
import { indexRuntime } from "../support/services.js"
import {
  askReceipt,
  builtSwap,
  mined,
  newQuoteId,
  putRecord,
  recordWith,
  sendTagged,
  storedRecord,
  taggedPlan,
  unknownHash
} from "./support.js"

let devnet: PrivateDevnet
let env: Env
let runtime: ManagedRuntime.ManagedRuntime<any, any>

beforeAll(async () => {
  devnet = await startDevnet()
  env = envOf(devnet.manifest)
  runtime = indexRuntime(devnet.manifest)
})
afterAll(async () => {
  await runtime?.dispose()
  await devnet?.stop()
})

const ask = (body: { quoteId: string; txHashes: ReadonlyArray<string> }) => askReceipt(runtime, body)

describe("a swap not mined yet", () => {
  it("is pending with next retry, and passes once mined", async () => {
    const trader = env.trader(2)
    const WETH = env.token("WETH")
    const approval = (await trader.approve(env.usdc, env.router, 10_000_000n)).transactionHash
    const block = Number(await trader.public.getBlockNumber())
    const quoteId = newQuoteId()
    const neverSeen = newQuoteId()
    const plan = taggedPlan(quoteId, {
      sellToken: env.usdc,
      buyToken: WETH,
      recipient: trader.address,
      amountIn: 10_000_000n,
      steps: [poolStep(env.manifest, "v2:WETH/USDC", env.usdc, 10_000_000n)]
    })
    const store = (quoteId: string) =>
      runtime.runPromise(putRecord(recordWith(quoteId, {
        sell: lowerAddress(env.usdc),
        buy: lowerAddress(WETH),
        swap: builtSwap({ block, taker: lowerAddress(trader.address), planHashes: [planHashOf(plan)] })
      })))
    await store(quoteId)
    await store(neverSeen)
    const before = await trader.balanceOf(WETH)

    await trader.test.setAutomine(false)
    let swapHash: Hex
    try {
      swapHash = await sendTagged(trader, env.router, plan)
      const pending = await ask({ quoteId, txHashes: [approval, swapHash] })
      expect(pending).toMatchObject({
        result: "pending",
        next: "retry",
        retryAfterSec: 5,
        delivered: "0",
        swapTxHash: null,
        block: null,
        transactions: [
          { txHash: approval, status: "success" },
          { txHash: swapHash, status: "unmined", block: null }
        ]
      })
      expect(pending.reason).toContain("txHashes[1]")

      // A hash the node does not know counts as not mined yet.
      const unknown = unknownHash()
      expect(await ask({ quoteId: neverSeen, txHashes: [approval, unknown] })).toMatchObject({
        result: "pending",
        next: "retry",
        transactions: [{ status: "success" }, { txHash: unknown, status: "unmined", block: null }]
      })
    } finally {
      await trader.test.mine({ blocks: 1 })
      await trader.test.setAutomine(true)
    }
    const filled = await mined(trader, swapHash)
    const rose = (await trader.balanceOf(WETH)) - before

    // the next read is allowed 5 s after the last: move the last read back rather than wait
    const record = (await runtime.runPromise(storedRecord(quoteId)))!
    await runtime.runPromise(putRecord({ ...record, receiptReads: { ...record.receiptReads, lastAtMs: 0 } }))
    expect(await ask({ quoteId, txHashes: [approval, swapHash] })).toMatchObject({
      result: "pass",
      delivered: rose.toString(),
      swapTxHash: swapHash,
      block: Number(filled.blockNumber),
      transactions: [{ status: "success" }, { status: "success", block: Number(filled.blockNumber) }]
    })
  })
})
