/**
 * The whole trade flow on a private devnet, with viem as the wallet: quote, swap (approve and Permit2
 * flows), signing the permit, swap/tx, sending every transaction as returned. Each trade must mine and
 * deliver exactly `amountOutSimulated` (nothing else trades in between), at least `minAmountOut`.
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { type Address, getAddress, parseUnits, zeroAddress } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { pinnedClock } from "../support/clock.js"
import { clientsFor, contractAddress, tokenAddress } from "../support/devnet.js"
import { indexRuntime, synced } from "../support/services.js"
import { answerOf, errorOf, harnessPerFile, operationsOf, takerOn } from "./harness.js"

const { harness, ops, execute, trade } = harnessPerFile()
let USDC: Address
let WETH: Address
let WBTC: Address
let router: Address
let permit2: Address

beforeAll(async () => {
  const { manifest } = harness.devnet
  USDC = tokenAddress(manifest, "USDC")
  WETH = tokenAddress(manifest, "WETH")
  WBTC = tokenAddress(manifest, "WBTC")
  router = contractAddress(manifest, "router")
  permit2 = contractAddress(manifest, "permit2")
})

describe("native-funded USDC sells", () => {
  it("a USDC sell covered by native value needs no approval and no signature, and delivers exactly the simulation", async () => {
    const taker = await takerOn(harness)
    const { built, delivered, quoted } = await trade(taker, { sell: USDC, buy: WETH, amount: "1500" })
    expect(built.signatures).toEqual([])
    expect(built.next).toBeUndefined()
    expect(built.transactions.map((tx) => tx.purpose)).toEqual(["swap"])
    expect(built.transactions[0]!.to).toBe(getAddress(router))
    expect(built.transactions[0]!.value).toBe((1_500_000_000n * 10n ** 12n).toString())
    expect(delivered).toBe(BigInt(built.amountOutSimulated))
    expect(delivered).toBeGreaterThanOrEqual(BigInt(built.minAmountOut))
    expect(built.minAmountOut).toBe(quoted.best.minAmountOutRaw)
  })

  it("a large USDC order splits across venues of different forks and executes as priced, receipt pass", async () => {
    const taker = await takerOn(harness, "900000")
    const { delivered, final, quoted } = await trade(taker, { sell: USDC, buy: WETH, amount: "400000", maxSplits: 3 })
    expect(quoted.best.type).toBe("split")
    const venues = new Set(quoted.best.legs.flatMap((leg) => leg.hops.map((hop) => hop.venue)))
    expect([...venues].some((id) => !id.startsWith("uniswap-")), [...venues].join()).toBe(true)
    expect([...venues].some((id) => id.startsWith("uniswap-")), [...venues].join()).toBe(true)
    // `trade` checked the receipt: `pass`, delivered to the base unit.
    expect(delivered).toBe(BigInt(final.amountOutSimulated))
    expect(delivered).toBe(BigInt(quoted.best.amountOutQuotedRaw))
  })
})

describe("the Permit2 flow", () => {
  it("approves Permit2, asks for a permit, returns a placeholder that cannot execute, then the final swap once", async () => {
    const taker = await takerOn(harness)
    const bought = await trade(taker, { sell: USDC, buy: WETH, amount: "3000" })
    const weth = bought.delivered
    const recipient = privateKeyToAccount(generatePrivateKey()).address

    const quoted = answerOf(await ops.quote({ sell: WETH, buy: USDC, amount: "0.5", taker: taker.address }))
    expect(quoted.readiness?.approval.needs).toBe("approve_and_sign_permit")
    const built = answerOf(await ops.swap({ quoteId: quoted.quoteId, taker: taker.address, recipient }))
    expect(built.next).toBe("sign_permit")
    expect(built.transactions.map((tx) => tx.purpose)).toEqual(["approve", "swap_placeholder"])
    expect(built.transactions[0]!.to).toBe(getAddress(WETH))
    const typed = built.signatures[0]!.typedData
    expect(typed.primaryType).toBe("PermitSingle")
    expect(typed.domain).toEqual({ name: "Permit2", chainId: 5042, verifyingContract: getAddress(permit2) })
    expect(typed.message.details.amount).toBe((5n * 10n ** 17n).toString())
    expect(typed.message.spender).toBe(getAddress(router))
    const issuedAt = Number(typed.message.sigDeadline) - 600
    expect(Number(typed.message.details.expiration) - issuedAt).toBe(30 * 86_400)

    // The placeholder reverts even once Permit2 is approved: it must never be sent.
    await ops.indexed((await taker.send(built.transactions[0]!)).blockNumber)
    await expect(
      taker.clients.public.call({
        account: taker.address,
        to: built.transactions[1]!.to as Address,
        data: built.transactions[1]!.data as `0x${string}`
      })
    ).rejects.toThrow()

    const signature = await taker.signPermit(built)
    const swapTxBody = {
      quoteId: quoted.quoteId,
      taker: taker.address,
      recipient,
      permit: { message: typed.message, signature }
    }
    const final = answerOf(await ops.swapTx(swapTxBody))
    expect(final.next).toBeUndefined()
    expect(final.signatures).toEqual([])
    // The approval was already mined, so only the swap is left.
    expect(final.transactions.map((tx) => tx.purpose)).toEqual(["swap"])
    const delivered = await execute(taker, final, USDC, recipient)
    expect(delivered).toBe(BigInt(final.amountOutSimulated))
    expect(delivered).toBeGreaterThanOrEqual(BigInt(final.minAmountOut))
    expect(await taker.balanceOf(WETH)).toBe(weth - 5n * 10n ** 17n)

    // A round is usable once.
    expect(errorOf(await ops.swapTx(swapTxBody))._tag).toBe("NoPendingSwap")
  })

  it("swap/tx refuses a permit that was not issued, a signature by someone else and an unopened round", async () => {
    const taker = await takerOn(harness)
    await trade(taker, { sell: USDC, buy: WETH, amount: "800" })
    const quoted = answerOf(await ops.quote({ sell: WETH, buy: USDC, amount: "0.1", taker: taker.address }))
    const built = answerOf(await ops.swap({ quoteId: quoted.quoteId, taker: taker.address }))
    const message = built.signatures[0]!.typedData.message
    const forged = { ...message, details: { ...message.details, amount: "1" } }
    const wrongMessage = await ops.swapTx({
      quoteId: quoted.quoteId,
      taker: taker.address,
      permit: { message: forged, signature: await taker.signPermit(built) }
    })
    expect(errorOf(wrongMessage)).toMatchObject({ _tag: "InvalidRequest" })
    const stranger = privateKeyToAccount(generatePrivateKey())
    const strangerSigned = await ops.swapTx({
      quoteId: quoted.quoteId,
      taker: taker.address,
      permit: { message, signature: await stranger.signTypedData(built.signatures[0]!.typedData as never) }
    })
    expect(errorOf(strangerSigned)).toMatchObject({ _tag: "InvalidRequest" })
    const otherRecipient = await ops.swapTx({
      quoteId: quoted.quoteId,
      taker: taker.address,
      recipient: stranger.address,
      permit: { message, signature: await taker.signPermit(built) }
    })
    expect(errorOf(otherRecipient)._tag).toBe("NoPendingSwap")
    // Two failures so far: the round is still open and finishes with the right signature.
    const final = answerOf(
      await ops.swapTx({
        quoteId: quoted.quoteId,
        taker: taker.address,
        permit: { message, signature: await taker.signPermit(built) }
      })
    )
    expect(final.transactions.map((tx) => tx.purpose)).toEqual(["approve", "swap"])
    expect(await execute(taker, final, USDC)).toBe(BigInt(final.amountOutSimulated))
  })

  it("concurrent swaps of one quote open one permit round: every answer asks for the same signature", async () => {
    const taker = await takerOn(harness)
    await trade(taker, { sell: USDC, buy: WETH, amount: "600" })
    const quoted = answerOf(await ops.quote({ sell: WETH, buy: USDC, amount: "0.05", taker: taker.address }))
    const answers = (await Promise.all(
      Array.from({ length: 4 }, () => ops.swap({ quoteId: quoted.quoteId, taker: taker.address }))
    )).map(answerOf)
    const typed = answers.map((answer) => JSON.stringify(answer.signatures[0]!.typedData))
    expect(new Set(typed).size).toBe(1)
    const signature = await taker.signPermit(answers[0]!)
    const final = answerOf(
      await ops.swapTx({
        quoteId: quoted.quoteId,
        taker: taker.address,
        permit: { message: answers[3]!.signatures[0]!.typedData.message, signature }
      })
    )
    expect(await execute(taker, final, USDC)).toBe(BigInt(final.amountOutSimulated))
  })

  it("five failed swap/tx calls close the round", async () => {
    const taker = await takerOn(harness)
    await trade(taker, { sell: USDC, buy: WETH, amount: "500" })
    const quoted = answerOf(await ops.quote({ sell: WETH, buy: USDC, amount: "0.05", taker: taker.address }))
    const built = answerOf(await ops.swap({ quoteId: quoted.quoteId, taker: taker.address }))
    const stranger = privateKeyToAccount(generatePrivateKey())
    const bad = {
      quoteId: quoted.quoteId,
      taker: taker.address,
      permit: {
        message: built.signatures[0]!.typedData.message,
        signature: await stranger.signTypedData(built.signatures[0]!.typedData as never)
      }
    }
    for (let i = 0; i < 5; i++) expect(errorOf(await ops.swapTx(bad))._tag).toBe("InvalidRequest")
    const good = { ...bad, permit: { ...bad.permit, signature: await taker.signPermit(built) } }
    expect(errorOf(await ops.swapTx(good))._tag).toBe("SwapAttemptsExhausted")
  })

  it("a graph plan (neither side USDC) executes through the Permit2 flow", async () => {
    const taker = await takerOn(harness)
    await trade(taker, { sell: USDC, buy: WETH, amount: "4000" })
    const { delivered, final, quoted } = await trade(taker, { sell: WETH, buy: WBTC, amount: "1", maxSplits: 3 })
    expect(quoted.best.type).toBe("graph")
    expect(delivered).toBe(BigInt(final.amountOutSimulated))
  })
})

describe("the approve flow", () => {
  it("exactOut: one exact-amount approval, then the swap, never a signature; the exact output arrives", async () => {
    const taker = await takerOn(harness)
    await trade(taker, { sell: USDC, buy: WETH, amount: "3000" })
    const { built, delivered, quoted } = await trade(
      taker,
      { sell: WETH, buy: USDC, amount: "700", side: "exactOut" },
      { approval: "approve" }
    )
    expect(built.signatures).toEqual([])
    expect(built.transactions.map((tx) => tx.purpose)).toEqual(["approve", "swap"])
    expect(BigInt(built.minAmountOut)).toBe(700_000_000n)
    expect(delivered).toBe(BigInt(built.amountOutSimulated))
    expect(delivered).toBeGreaterThanOrEqual(700_000_000n)
    expect(quoted.side).toBe("exactOut")
    // The approval is for the most the swap may spend, to the router.
    const approval = built.transactions[0]!
    expect(approval.to).toBe(getAddress(WETH))
    expect(approval.data.toLowerCase()).toContain(router.slice(2).toLowerCase())
  })

  it("no approval when the allowance already suffices", async () => {
    const taker = await takerOn(harness)
    await trade(taker, { sell: USDC, buy: WETH, amount: "2000" })
    await trade(taker, { sell: WETH, buy: USDC, amount: "0.1" }, { approval: "approve" })
    const approved = await taker.send({
      chainId: 5042,
      to: getAddress(WETH) as never,
      data: `0x095ea7b3${router.slice(2).toLowerCase().padStart(64, "0")}${"f".repeat(64)}`,
      value: "0",
      gas: "100000",
      purpose: "approve"
    })
    await ops.indexed(approved.blockNumber)
    const { built } = await trade(taker, { sell: WETH, buy: USDC, amount: "0.1" }, { approval: "approve" })
    expect(built.transactions.map((tx) => tx.purpose)).toEqual(["swap"])
  })
})

describe("a plan on a venue the operator disabled (spec rule 3)", () => {
  it("is not executable at quote time, and swap falls back to the best priced executable candidate", async () => {
    const request = { sell: USDC, buy: WETH, amount: "700", maxSplits: 1, maxHops: 1 }
    const open = answerOf(await ops.quote(request))
    const preferred = open.best.legs[0]!.hops[0]!.venue
    const others = [...new Set(open.routes.flatMap((route) => route.hops.map((hop) => hop.venue)))]
      .filter((venue) => venue !== preferred)
    expect(others.length).toBeGreaterThan(0)
    // The operator switches the best venue off; a caller naming it still gets it priced, not executable.
    const restricted = indexRuntime(harness.devnet.manifest, { settings: { DISABLED_VENUES: preferred } })
    try {
      await restricted.runPromise(synced)
      const disabledOps = operationsOf(restricted)
      const taker = await takerOn(harness)
      await disabledOps.indexed(await clientsFor(harness.devnet.manifest).public.getBlockNumber())
      const quoted = answerOf(
        await disabledOps.quote({ ...request, venues: [preferred, ...others], taker: taker.address })
      )
      expect(quoted.best.legs[0]!.hops[0]!.venue).toBe(preferred)
      expect(quoted.best.executable).toBe(false)
      expect(quoted.warnings).toContain("graph_execution_unavailable")
      expect(quoted.next).toBe("stop")
      const built = answerOf(await disabledOps.swap({ quoteId: quoted.quoteId, taker: taker.address }))
      const fallback = quoted.routes
        .filter((route) => route.hops.every((hop) => hop.venue !== preferred) && route.amountOutQuoted !== undefined)
        .map((route) => parseUnits(route.amountOutQuoted!, 18))
        .sort((a, b) => Number(b - a))[0]!
      // The fallback keeps its own quoted output less the quote's slippage (100 bp by default).
      expect(BigInt(built.minAmountOut)).toBe(fallback * 9_900n / 10_000n)
      const before = await taker.balanceOf(WETH)
      const receipts = await taker.sendAll(built.transactions)
      const executed = receipts[receipts.length - 1]!
      expect(executed.status).toBe("success")
      const delivered = (await taker.balanceOf(WETH)) - before
      // The fallback may be a pool whose hook sets the fee by the block's time, so what arrives can
      // differ from the simulation by a hair; never below the minimum, and the receipt says exactly what.
      expect(delivered).toBeGreaterThanOrEqual(BigInt(built.minAmountOut))
      await disabledOps.indexed(executed.blockNumber)
      const checked = answerOf(
        await disabledOps.receipt({ quoteId: quoted.quoteId, txHashes: receipts.map((r) => r.transactionHash) })
      )
      expect(checked).toMatchObject({ result: "pass", delivered: delivered.toString() })
    } finally {
      await restricted.dispose()
    }
  })
})

describe("refusals", () => {
  it("a taker without the sell amount gets insufficient_balance; five failures exhaust the quote", async () => {
    const taker = await takerOn(harness, "10", 0n)
    const quoted = answerOf(await ops.quote({ sell: WETH, buy: USDC, amount: "1" }))
    for (let i = 0; i < 5; i++) {
      expect(errorOf(await ops.swap({ quoteId: quoted.quoteId, taker: taker.address }))._tag).toBe(
        "InsufficientBalance"
      )
    }
    expect(errorOf(await ops.swap({ quoteId: quoted.quoteId, taker: taker.address }))._tag).toBe(
      "SwapAttemptsExhausted"
    )
  })

  it("concurrent failing swaps each use exactly one of the five attempts", async () => {
    const taker = await takerOn(harness, "10", 0n)
    const quoted = answerOf(await ops.quote({ sell: WETH, buy: USDC, amount: "1" }))
    const failures = await Promise.all(
      Array.from({ length: 3 }, () => ops.swap({ quoteId: quoted.quoteId, taker: taker.address }))
    )
    expect(failures.map((failure) => errorOf(failure)._tag)).toEqual(Array(3).fill("InsufficientBalance"))
    expect(errorOf(await ops.swap({ quoteId: quoted.quoteId, taker: taker.address }))._tag).toBe("InsufficientBalance")
    expect(errorOf(await ops.swap({ quoteId: quoted.quoteId, taker: taker.address }))._tag).toBe("InsufficientBalance")
    expect(errorOf(await ops.swap({ quoteId: quoted.quoteId, taker: taker.address }))._tag).toBe(
      "SwapAttemptsExhausted"
    )
  })

  it("a quote that buys a token it could not sell back is never built into transactions", async () => {
    const taker = await takerOn(harness)
    const honey = tokenAddress(harness.devnet.manifest, "HONEY")
    const quoted = answerOf(await ops.quote({ sell: USDC, buy: honey, amount: "50", taker: taker.address }))
    expect(quoted.safety?.verdict).toBe("cannot_sell")
    expect(quoted.next).toBe("stop")
    const refused = errorOf(await ops.swap({ quoteId: quoted.quoteId, taker: taker.address }))
    expect(refused._tag).toBe("CannotSell")
  })

  it("the zero address as recipient, an unknown quote, and a `permit` field are refused", async () => {
    const taker = await takerOn(harness)
    const quoted = answerOf(await ops.quote({ sell: USDC, buy: WETH, amount: "10" }))
    expect(errorOf(await ops.swap({ quoteId: quoted.quoteId, taker: taker.address, recipient: zeroAddress }))._tag)
      .toBe("InvalidRequest")
    expect(errorOf(await ops.swap({ quoteId: "q_00000000000000000000", taker: taker.address }))._tag).toBe(
      "QuoteNotFound"
    )
    const withPermit = errorOf(await ops.swap({ quoteId: quoted.quoteId, taker: taker.address, permit: {} }))
    expect(withPermit._tag).toBe("InvalidRequest")
  })

  it("an expired quote answers quote_expired with one free replacement quote", async () => {
    const taker = await takerOn(harness)
    const quoted = answerOf(await ops.quote({ sell: USDC, buy: WETH, amount: "25", ttlSec: 1 }))
    // past the quote's one second by the service's clock, without waiting for it
    const later = operationsOf(harness.runtime, pinnedClock(Date.now() + 1_100))
    const expired = errorOf(await later.swap({ quoteId: quoted.quoteId, taker: taker.address }))
    expect(expired._tag).toBe("QuoteExpired")
    const replacement = (expired as { quote?: { quoteId: string; next: string } }).quote
    expect(replacement?.quoteId).toMatch(/^q_/)
    expect(replacement?.quoteId).not.toBe(quoted.quoteId)
    // One per paid quote: the second expired call carries none.
    const again = errorOf(await later.swap({ quoteId: quoted.quoteId, taker: taker.address }))
    expect((again as { quote?: unknown }).quote).toBeUndefined()
    // The replacement is a live quote that trades.
    const built = answerOf(await ops.swap({ quoteId: replacement!.quoteId, taker: taker.address }))
    expect(await execute(taker, built, WETH)).toBe(BigInt(built.amountOutSimulated))
  })

  /** The one v2 USDC/WETH pair (a factory holds one pair per token pair): both sides trade the same pool. */
  const onePair = () => ({ sell: USDC, buy: WETH, venues: ["uniswap-v2"], maxHops: 1, maxSplits: 1 })

  it("a swap sandwiched below its minimum reverts on chain, and its receipt says fail with next requote", async () => {
    const taker = await takerOn(harness)
    const mover = await takerOn(harness, "900000")
    const quoted = answerOf(await ops.quote({ ...onePair(), amount: "200", slippageBps: 20 }))
    const built = answerOf(await ops.swap({ quoteId: quoted.quoteId, taker: taker.address }))
    // Someone trades the same pool between the swap's construction and its mining.
    await trade(mover, { ...onePair(), amount: "50000" })
    const before = await taker.balanceOf(WETH)
    const sent = await taker.send(built.transactions[0]!)
    expect(sent.status).toBe("reverted")
    expect(await taker.balanceOf(WETH)).toBe(before)
    await ops.indexed(sent.blockNumber)
    const checked = answerOf(await ops.receipt({ quoteId: quoted.quoteId, txHashes: [sent.transactionHash] }))
    expect(checked).toMatchObject({ result: "fail", delivered: "0", next: "requote" })
  })

  it("a price move beyond the slippage between quote and swap answers quote_stale with a usable replacement", async () => {
    const taker = await takerOn(harness)
    const mover = await takerOn(harness, "900000")
    const quoted = answerOf(
      await ops.quote({ ...onePair(), amount: "100", slippageBps: 10, taker: taker.address })
    )
    // Someone else buys WETH in the same pool first.
    await trade(mover, { ...onePair(), amount: "50000" })
    const stale = errorOf(await ops.swap({ quoteId: quoted.quoteId, taker: taker.address }))
    expect(stale._tag).toBe("QuoteStale")
    const replacement = (stale as { quote?: { quoteId: string; next: string } }).quote
    expect(replacement?.next).toBe("swap")
    const built = answerOf(await ops.swap({ quoteId: replacement!.quoteId, taker: taker.address }))
    expect(await execute(taker, built, WETH)).toBe(BigInt(built.amountOutSimulated))
  })
})
