/**
 * An owner who turns on the taker between the quote and the swap: launch templates' "bot lists" let a
 * marked wallet buy and then revert or confiscate its sells, while a fresh wallet (the quote's verdict)
 * still sells fine. `swap` and `swap/tx` simulate the taker's own sell-back after its buy and refuse
 * with `cannot_sell` (422, `next: stop`), never handing out the buy.
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { type Address, formatUnits, parseAbi } from "viem"
import { toErrorBody } from "../../schema/ErrorBody.js"
import { manifestAccount, tokenAddress } from "../support/devnet.js"
import { deployTrap, fundLiquidityProvider, listWithPair } from "../support/traps.js"
import { type Wallet, walletFor } from "../support/wallet.js"
import { answerOf, errorOf, harnessPerFile, type Taker, takerOn } from "./harness.js"

const { harness, ops, trade } = harnessPerFile()
let lp: Wallet
let USDC: Address
const listed = new Map<string, Address>()

beforeAll(async () => {
  const { manifest } = harness.devnet
  USDC = tokenAddress(manifest, "USDC")
  lp = walletFor(manifest, manifestAccount(manifest, 2))
  await fundLiquidityProvider(manifest, lp)
  for (const name of ["BotBlockToken", "BotTaxToken"]) {
    const token = await deployTrap(lp, name)
    await ops.indexed(BigInt((await listWithPair(manifest, lp, token)).block))
    listed.set(name, token)
  }
}, 180_000)

const markAsBot = async (name: string, taker: Taker) => {
  const marked = await lp.write(
    listed.get(name)!,
    parseAbi(["function setBots(address[] accounts, bool marked)"]),
    "setBots",
    [
      [taker.address],
      true
    ]
  )
  await ops.indexed(marked.blockNumber)
}

const quoteBuy = async (name: string, taker: Taker) => {
  const quoted = answerOf(await ops.quote({ sell: USDC, buy: listed.get(name)!, amount: "100", taker: taker.address }))
  expect(quoted.safety).toMatchObject({ verdict: "ok", canSell: true })
  expect(quoted.next).toBe("swap")
  return quoted
}

describe("a taker barred after the quote", () => {
  it("whose sells now revert is refused at `swap` with cannot_sell, and holds nothing", async () => {
    const taker = await takerOn(harness)
    const quoted = await quoteBuy("BotBlockToken", taker)
    await markAsBot("BotBlockToken", taker)
    const error = errorOf(await ops.swap({ quoteId: quoted.quoteId, taker: taker.address }))
    expect(error._tag).toBe("CannotSell")
    expect(error.message).toMatch(/can buy 0x[0-9a-f]{40} but its sell-back right after reverts: /)
    expect(toErrorBody(error).next).toBe("stop")
    expect(await taker.balanceOf(listed.get("BotBlockToken")!)).toBe(0n)
  })

  it("whose sells are now taxed 99 % is refused at `swap` with the round trip it would make", async () => {
    const taker = await takerOn(harness)
    const quoted = await quoteBuy("BotTaxToken", taker)
    await markAsBot("BotTaxToken", taker)
    const error = errorOf(await ops.swap({ quoteId: quoted.quoteId, taker: taker.address }))
    expect(error._tag).toBe("CannotSell")
    expect(error.message).toMatch(/selling it back right after returns \d+ USDC base units of 100000000 \(a 99\d\d bps/)
    expect(toErrorBody(error).next).toBe("stop")
  })

  it("marked while the permit is being signed is refused at `swap/tx`", async () => {
    // ERC-20 USDC for a Permit2-funded buy, beside the fees.
    const taker = await takerOn(harness, "100000", 150n)
    const quoted = await quoteBuy("BotBlockToken", taker)
    const built = answerOf(await ops.swap({ quoteId: quoted.quoteId, taker: taker.address, approval: "permit2" }))
    expect(built.next).toBe("sign_permit")
    for (const tx of built.transactions.filter((t) => t.purpose === "approve")) {
      await ops.indexed((await taker.send(tx)).blockNumber)
    }
    await markAsBot("BotBlockToken", taker)
    const error = errorOf(
      await ops.swapTx({ quoteId: quoted.quoteId, taker: taker.address, permit: await taker.permitFor(built) })
    )
    expect(error._tag).toBe("CannotSell")
    expect(toErrorBody(error).next).toBe("stop")
  })

  it("a taker the owner left alone trades the same token both ways, each transaction at its returned gas", async () => {
    const taker = await takerOn(harness)
    const token = listed.get("BotBlockToken")!
    const bought = await trade(taker, { sell: USDC, buy: token, amount: "100" })
    const sold = await trade(taker, { sell: token, buy: USDC, amount: formatUnits(bought.delivered, 18) })
    expect(sold.delivered).toBeGreaterThan(0n)
    expect(await taker.balanceOf(token)).toBe(0n)
  })
})
