/**
 * Broadcast settlement on a devnet mining a block every 0.5 s, as Arc does (issue 23): paid calls are
 * answered once their settlement is sent, one payer's concurrent calls are all served with several
 * settlements unconfirmed at once (its balance covers them all), each call is charged exactly once, and a settlement the node's pool lost
 * (dropped with `anvil_dropTransaction` while the miner is paused, so the nonces after it cannot be
 * mined) is sent again with the same nonce and a higher fee, after which it and those behind it land.
 * Answers name their settlement (its hash is computed from the signed transaction) and leave once the
 * node has taken it; one the node refuses (its nonce taken by another sender on the key) is not served
 * and not charged, and the settlements after it still land.
 */
import { Effect, Option } from "effect"
import type { Hex, PrivateKeyAccount } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { expect, it } from "vitest"
import { roles } from "../../devnet/accounts.js"
import { SubmittedPayment } from "../../layers/PaymentGate.js"
import { clientsFor, manifestAccount, pooled } from "../support/devnet.js"
import { walletFor } from "../support/wallet.js"
import { USDC } from "../support/x402.js"
import { gateHarness, search } from "./harness.js"

const harness = gateHarness(5, { SETTLEMENT_MODE: "broadcast", SETTLEMENT_REPLACE_AFTER_MS: "500" }, {
  blockTime: Option.some(0.5)
})
const { exposure, gate, paid, payTo, settled, signFor } = harness

it("serves 20 concurrent calls of one payer with several unconfirmed at once, each charged once", async () => {
  const headers = await Promise.all(Array.from({ length: 20 }, () => signFor(search)))
  let most = 0
  let running = true
  const watch = (async () => {
    while (running) {
      most = Math.max(most, (await exposure()).unconfirmed.count)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  })()
  let receipts: Array<{ readonly transaction: string; readonly success: boolean }> = []
  const delta = await harness.balances(async () => {
    receipts = await Promise.all(headers.map(({ header }) => paid(search, header)))
    await settled()
  })
  running = false
  await watch
  expect(receipts.every((receipt) => receipt.success)).toBe(true)
  expect(new Set(receipts.map((receipt) => receipt.transaction)).size).toBe(20)
  expect(most).toBeGreaterThan(1)
  expect(delta).toEqual([-100_000n, 100_000n])
  const chain = clientsFor(harness.manifest()).public
  for (const { transaction } of receipts) {
    expect((await chain.getTransactionReceipt({ hash: transaction as Hex })).status).toBe("success")
  }
})

it("replaces a settlement lost from the pool with the same nonce and a higher fee; those behind it land", async () => {
  const manifest = harness.manifest()
  const { public: chain, test } = clientsFor(manifest)
  const payers = [1, 2, 3].map((i) => manifestAccount(manifest, i))
  const headers = await Promise.all(payers.map((payer) => signFor(search, payer)))
  const before = await Promise.all(payers.map((payer) => walletFor(manifest, payer).balanceOf(USDC)))
  const feesBefore = await walletFor(manifest, payers[0]!).balanceOf(USDC, payTo)

  await test.setIntervalMining({ interval: 0 })
  let first: { readonly hash: Hex; readonly nonce: number; readonly maxFeePerGas: bigint; readonly from: Hex }
  const paused = await chain.getBlockNumber()
  try {
    const answered = await Promise.all(headers.map(({ header }) => paid(search, header)))
    const sent = await Promise.all(answered.map(({ transaction }) => pooled(manifest, transaction as Hex)))
    // Three consecutive nonces, in whatever order the concurrent calls were numbered.
    const lowestNonce = Math.min(...sent.map((tx) => tx.nonce))
    expect(sent.map((tx) => tx.nonce - lowestNonce).sort()).toEqual([0, 1, 2])
    const lowest = sent.reduce((a, b) => (a.nonce < b.nonce ? a : b))
    first = { hash: lowest.hash, nonce: lowest.nonce, maxFeePerGas: lowest.maxFeePerGas ?? 0n, from: lowest.from }
    await test.dropTransaction({ hash: first.hash })
  } finally {
    await test.setIntervalMining({ interval: 1 })
  }
  await settled()

  // The lost nonce landed as another transaction from the settlement key, priced higher.
  const head = await chain.getBlockNumber()
  const history = await Promise.all(
    Array.from(
      { length: Number(head - paused) },
      (_, i) => chain.getBlock({ blockNumber: paused + 1n + BigInt(i), includeTransactions: true })
    )
  )
  const landed = history.flatMap((b) => b.transactions).find((tx) => tx.nonce === first.nonce && tx.from === first.from)
  expect(landed?.hash).not.toBe(first.hash)
  expect(landed?.maxFeePerGas ?? 0n).toBeGreaterThan(first.maxFeePerGas)
  // Each payer paid once and the fee recipient got all three.
  const after = await Promise.all(payers.map((payer) => walletFor(manifest, payer).balanceOf(USDC)))
  expect(after.map((balance, i) => before[i]! - balance)).toEqual([5_000n, 5_000n, 5_000n])
  expect(await walletFor(manifest, payers[0]!).balanceOf(USDC, payTo)).toBe(feesBefore + 15_000n)
})

it("does not serve a settlement the node refused, charges nothing for it, and sends the next ones", async () => {
  const manifest = harness.manifest()
  const chain = clientsFor(manifest).public
  const [payer, other] = [4, 7].map((i) => manifestAccount(manifest, i)) as [PrivateKeyAccount, PrivateKeyAccount]
  // One settlement first, so the gate's nonce counter is set; then another sender on the settlement key
  // takes the nonce the counter will hand out next.
  await paid(search, (await signFor(search, other)).header)
  await settled()
  const key = privateKeyToAccount(roles().treasury.privateKey)
  const { wallet } = clientsFor(manifest, key)
  await chain.waitForTransactionReceipt({
    hash: await wallet.sendTransaction({ account: key, to: key.address, value: 0n })
  })
  const call = (header: string) =>
    gate((g) => Effect.either(g.charge(search, Option.some(SubmittedPayment.header(header)), Effect.succeed("a"))))

  const [charged] = await walletFor(manifest, payer).deltas(USDC, [payer.address], async () => {
    // The node refuses its settlement (nonce too low): not served, the payer is asked to call again.
    expect(await call((await signFor(search, payer)).header)).toMatchObject({
      _tag: "Left",
      left: { _tag: "PaymentUnavailable" }
    })
    await settled()
  })
  expect(charged).toBe(0n)
  // Nothing was served, so nothing is owed: the payer's next call is served, and charged once.
  expect((await exposure()).debts).toEqual({ count: 0, value: 0n })
  const [paidAgain] = await walletFor(manifest, payer).deltas(USDC, [payer.address], async () => {
    expect(await call((await signFor(search, payer)).header)).toMatchObject({ _tag: "Right" })
    await settled()
  })
  expect(paidAgain).toBe(-5_000n)

  // The counter moved past the taken nonce: the next payer's settlement lands (under the hash its answer
  // named or, this file's replacement time being short, a replacement's), and it pays once.
  const [paidNext] = await walletFor(manifest, other).deltas(USDC, [other.address], async () => {
    await paid(search, (await signFor(search, other)).header)
    await settled()
  })
  expect(paidNext).toBe(-5_000n)
})
