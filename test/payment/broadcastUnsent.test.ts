/**
 * A broadcast settlement the node does not take, and a service closed and restarted behind it. The
 * node refuses the send for real: the settlement key has no gas (`anvil_setBalance` to 0), so anvil
 * answers every send of it with an error, the follow-up's resends too. The service closes, the key is
 * funded again and the service restarts: its nonce counter starts from the node's pending count, which
 * never saw the refused settlement, so the next settlement takes the same nonce and the refused one can
 * never land. A payer must therefore not be served on it: the call is answered 502, nothing is charged,
 * and the next payer is served and charged once.
 *
 * The other side: a send whose answer is lost after the node took it (the JSON-RPC proxy forwards it and
 * drops the node's answer, as a connection failing on the way back does) may land, so it is served as
 * taken, and charged once; refusing it would charge the payer for an error.
 */
import { Option } from "effect"
import type { Hex } from "viem"
import { describe, expect, it } from "vitest"
import { roles } from "../../devnet/accounts.js"
import { clientsFor, pooled } from "../support/devnet.js"
import { answerLost } from "../support/rpcCounter.js"
import { walletFor } from "../support/wallet.js"
import { USDC } from "../support/x402.js"
import { gateHarness, search } from "./harness.js"

const settlementKey = roles().treasury.address

describe("a broadcast settlement the node refuses, then the service closed and restarted", () => {
  const harness = gateHarness(5, { SETTLEMENT_MODE: "broadcast" })

  it("is not served: nothing is charged, and the next payer is served and charged once", async () => {
    const manifest = harness.manifest()
    const [refused, next] = await harness.twoPayers(search)
    const { public: chain, test } = clientsFor(manifest)
    const gas = await chain.getBalance({ address: settlementKey })
    const nonce = await chain.getTransactionCount({ address: settlementKey, blockTag: "pending" })

    const deltas = await walletFor(manifest, refused.account).deltas(
      USDC,
      [refused.account.address, next.account.address, harness.payTo],
      async () => {
        await test.setBalance({ address: settlementKey, value: 0n })
        const answer = await harness.call(search, refused.header)
        expect(answer).toMatchObject({ _tag: "Left", left: { _tag: "PaymentUnavailable" } })
        // Its nonce's fill cannot be sent either; meanwhile it is not counted as a served settlement.
        expect((await harness.exposure()).unconfirmed).toEqual({ count: 0, value: 0n })
        await harness.close()

        await test.setBalance({ address: settlementKey, value: gas })
        harness.restart()
        const served = await harness.paid(search, next.header)
        expect((await pooled(manifest, served.transaction as Hex)).nonce).toBe(nonce)
        const landed = await chain.waitForTransactionReceipt({ hash: served.transaction as Hex, timeout: 20_000 })
        expect(landed.status).toBe("success")
        await harness.settled()
      }
    )
    expect(deltas).toEqual([0n, -5_000n, 5_000n])
  })
})

describe("a broadcast settlement the node took, its answer lost on the way back", () => {
  let first = true
  const harness = gateHarness(5, { SETTLEMENT_MODE: "broadcast" }, {}, (call) => {
    if (call.method !== "eth_sendRawTransaction" || !first) return undefined
    first = false
    return Promise.resolve(answerLost)
  })

  it("is served as taken, lands, and charges the payer once", async () => {
    const chain = clientsFor(harness.manifest()).public
    const paid = await harness.signFor(search)
    let answer: Awaited<ReturnType<typeof harness.call>> | undefined
    const [charged, earned] = await harness.balances(async () => {
      answer = await harness.call(search, paid.header)
      await harness.settled()
    })
    expect(first).toBe(false)
    expect(answer).toMatchObject({ _tag: "Right" })
    const settlement = answer?._tag === "Right" ? Option.getOrThrow(answer.right.receipt).settlement : undefined
    const landed = await chain.getTransactionReceipt({ hash: settlement?.transaction as Hex })
    expect(landed.status).toBe("success")
    expect([charged, earned]).toEqual([-5_000n, 5_000n])
  })
})
