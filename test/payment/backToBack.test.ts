/**
 * Several unconfirmed settlements per payer, bounded by what the payer can pay (issue 35), on a devnet
 * mining every 0.5 s whose miner the tests pause, so "served without waiting for a block" is seen as
 * answers given while no block comes: a payer's back-to-back calls are each served at once; a burst
 * beyond the payer's balance is refused before its operation runs and charged nothing; and a service
 * closed with settlements unmined and started again serves nothing on the money they will take (its book
 * is new, so it serves no call before its own settlement is mined until they have landed).
 */
import { Effect, Option } from "effect"
import type { Hex } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { expect, it } from "vitest"
import { SubmittedPayment } from "../../layers/PaymentGate.js"
import { clientsFor, manifestAccount } from "../support/devnet.js"
import { walletFor } from "../support/wallet.js"
import { USDC } from "../support/x402.js"
import { gateHarness, search } from "./harness.js"

const harness = gateHarness(5, { SETTLEMENT_MODE: "broadcast" }, { blockTime: Option.some(0.5) })
const { gate, paid, payTo, settled, signFor } = harness

/** Runs `action` with the miner paused, then mines again at the devnet's pace. */
const paused = async <A>(action: (head: bigint) => Promise<A>) => {
  const { public: chain, test } = clientsFor(harness.manifest())
  await test.setIntervalMining({ interval: 0 })
  try {
    return await action(await chain.getBlockNumber())
  } finally {
    await test.setIntervalMining({ interval: 1 })
  }
}

/** A new payer holding exactly `usdc` base units. */
const payerWith = async (usdc: bigint) => {
  const account = privateKeyToAccount(generatePrivateKey())
  await walletFor(harness.manifest(), manifestAccount(harness.manifest(), 1)).transfer(USDC, account.address, usdc)
  return account
}

it("serves a payer's back-to-back calls without waiting for a block, each charged once", async () => {
  const chain = clientsFor(harness.manifest()).public
  const payer = harness.payer()
  const headers = await Promise.all(Array.from({ length: 5 }, () => signFor(search)))
  const delta = await harness.balances(async () => {
    const answered = await paused(async (head) => {
      const receipts = []
      for (const { header } of headers) receipts.push(await paid(search, header))
      // All five served, and no block came: none waited for another's settlement.
      expect(await chain.getBlockNumber()).toBe(head)
      expect((await harness.exposure()).payers).toEqual([
        { payer: payer.address.toLowerCase(), count: 5, value: 25_000n }
      ])
      return receipts
    })
    await settled()
    for (const { transaction } of answered) {
      expect((await chain.getTransactionReceipt({ hash: transaction as Hex })).status).toBe("success")
    }
  })
  expect(delta).toEqual([-25_000n, 25_000n])
})

it("a call signed ahead and then not settled (operation failed, payment refused) takes no nonce from the next", async () => {
  const chain = clientsFor(harness.manifest()).public
  const payer = await payerWith(50_000n)
  const [first, failing, last] = await Promise.all(Array.from({ length: 3 }, () => signFor(search, payer)))
  // Another payer's authorization under this payer's name: its signature does not verify.
  const forged = await signFor(search)
  const charged = (header: string, operation: Effect.Effect<string, string>) =>
    gate((g) => Effect.either(g.charge(search, Option.some(SubmittedPayment.header(header)), operation)))
  const [paidBy, received] = await walletFor(harness.manifest(), payer).deltas(
    USDC,
    [payer.address, payTo],
    async () => {
      const answered = await paused(async (head) => {
        const one = await paid(search, first!.header)
        // Each admitted call drafts its settlement for the next nonce while it is verified; these two are
        // never settled, so the last call must take the nonce they drafted, leaving no gap behind it.
        expect(await charged(failing!.header, Effect.fail("the operation failed"))).toMatchObject({
          _tag: "Left",
          left: "the operation failed"
        })
        const mixed = JSON.parse(Buffer.from(forged.header, "base64").toString("utf8"))
        mixed.payload.authorization.from = payer.address
        const refused = await charged(Buffer.from(JSON.stringify(mixed)).toString("base64"), Effect.succeed("a"))
        expect(refused).toMatchObject({ _tag: "Left", left: { _tag: "PaymentRejected" } })
        const two = await paid(search, last!.header)
        expect(await chain.getBlockNumber()).toBe(head)
        return [one, two]
      })
      await settled()
      for (const { transaction } of answered) {
        expect((await chain.getTransactionReceipt({ hash: transaction as Hex })).status).toBe("success")
      }
    }
  )
  expect([paidBy, received]).toEqual([-10_000n, 10_000n])
})

it("refuses a burst beyond the payer's balance before anything runs, and charges only what it served", async () => {
  const payer = await payerWith(12_000n)
  const headers = await Promise.all(Array.from({ length: 5 }, () => signFor(search, payer)))
  let runs = 0
  const operation = Effect.sync(() => `answer ${++runs}`)
  const [paidBy, received] = await walletFor(harness.manifest(), payer).deltas(
    USDC,
    [payer.address, payTo],
    async () => {
      const outcomes = await paused(() =>
        Promise.all(
          headers.map(({ header }) =>
            gate((g) => Effect.either(g.charge(search, Option.some(SubmittedPayment.header(header)), operation)))
          )
        )
      )
      const served = outcomes.filter((outcome) => outcome._tag === "Right")
      const refused = outcomes.flatMap((outcome) => outcome._tag === "Left" ? [outcome.left] : [])
      // 12,000 covers two calls of 5,000: the other three are refused, their operation never run.
      expect(served).toHaveLength(2)
      expect(runs).toBe(2)
      expect(refused.map((left) => [left._tag, "reason" in left ? left.reason : ""])).toEqual(
        Array.from({ length: 3 }, () => ["PaymentRejected", "insufficient_funds"])
      )
      await settled()
    }
  )
  expect([paidBy, received]).toEqual([-10_000n, 10_000n])
})

it("closed with a payer's settlements unmined, restarted: loses none, serves nothing unpaid", async () => {
  const chain = clientsFor(harness.manifest()).public
  // Three calls' worth: all three served before the close, so a fourth has nothing to pay with.
  const payer = await payerWith(15_000n)
  const headers = await Promise.all(Array.from({ length: 4 }, () => signFor(search, payer)))
  const [paidBy, received] = await walletFor(harness.manifest(), payer).deltas(
    USDC,
    [payer.address, payTo],
    async () => {
      const { public: _, test } = clientsFor(harness.manifest())
      await test.setIntervalMining({ interval: 0 })
      const left = []
      for (const { header } of headers.slice(0, 3)) left.push(await paid(search, header))
      await harness.close()
      harness.restart()
      // The new service's book is empty and the balance at the head still holds all 15,000: it must not
      // serve the fourth before its settlement is mined, which then fails behind the three.
      const fourth = gate((g) =>
        Effect.either(g.charge(search, Option.some(SubmittedPayment.header(headers[3]!.header)), Effect.succeed("a")))
      )
      await new Promise((resolve) => setTimeout(resolve, 500))
      await test.setIntervalMining({ interval: 1 })
      expect(await fourth).toMatchObject({ _tag: "Left", left: { _tag: "PaymentRejected" } })
      for (const { transaction } of left) {
        const landed = await chain.waitForTransactionReceipt({ hash: transaction as Hex, timeout: 20_000 })
        expect(landed.status).toBe("success")
      }
      await settled()
    }
  )
  expect([paidBy, received]).toEqual([-15_000n, 15_000n])
})
