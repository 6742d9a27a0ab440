/**
 * Tokens the service has never seen, each listed in a fresh v2 USDC pair (contracts/safety/): traps
 * that lock holders later or in some blocks, one whose owner raises its sell tax between quote and
 * swap, and honest tokens with odd behaviour (USDT's approve rule, Transfer events from a second
 * address, an EIP-1967 proxy, an owner with a blacklist setter). Each is quoted as an agent would;
 * the traps must stop the agent, the honest ones must trade both ways with receipt `pass`. Every pair
 * here is seeded by the token's deployer, who keeps the LP tokens: each verdict is measured
 * `liquidity_removable` (src/safety/powers/Liquidity.ts), as it truly is.
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { type Address, decodeFunctionData, erc20Abi, formatUnits, getAddress, parseAbi, toFunctionSelector } from "viem"
import { toErrorBody } from "../../schema/ErrorBody.js"
import { contractAddress, manifestAccount, tokenAddress } from "../support/devnet.js"
import { deployTrap, fundLiquidityProvider, listWithPair } from "../support/traps.js"
import { type Wallet, walletFor } from "../support/wallet.js"
import { answerOf, errorOf, harnessPerFile, takerOn } from "./harness.js"

const { harness, ops, trade } = harnessPerFile()
let lp: Wallet
let USDC: Address
const listed = new Map<string, Address>()

const TOKENS = [
  "SellWindowToken",
  "ParityGateToken",
  "TaxRaiseToken",
  "ResetApproveToken",
  "SecondEmitterToken",
  "UpgradeableToken",
  "BlacklistToken"
]

beforeAll(async () => {
  const { manifest } = harness.devnet
  USDC = tokenAddress(manifest, "USDC")
  lp = walletFor(manifest, manifestAccount(manifest, 2))
  await fundLiquidityProvider(manifest, lp)
  for (const name of TOKENS) {
    const token = await deployTrap(lp, name)
    const { block } = await listWithPair(manifest, lp, token)
    await ops.indexed(BigInt(block))
    listed.set(name, token)
  }
}, 180_000)

const token = (name: string) => listed.get(name)!

/** `setSellTax` simulated at 25 and 100 bp raises the tax; at 10,000 bp it takes the whole sale. */
const TAX_RAISE_FLAGS = ["owner_can_stop_sells", "owner_can_set_tax", "liquidity_removable"]

/** A quote of a $100 buy of `name`, for a taker that holds the USDC. */
const quoteBuy = async (name: string, taker: Address) =>
  answerOf(await ops.quote({ sell: USDC, buy: token(name), amount: "100", taker }))

/** Buys $100 of `name` and sells all of it back; both receipts `pass`. */
const roundTrip = async (name: string, sellOptions: Record<string, unknown> = {}) => {
  const taker = await takerOn(harness)
  const bought = await trade(taker, { sell: USDC, buy: token(name), amount: "100" })
  expect(bought.delivered).toBeGreaterThan(0n)
  const sold = await trade(
    taker,
    { sell: token(name), buy: USDC, amount: formatUnits(bought.delivered, 18) },
    sellOptions
  )
  expect(sold.delivered).toBeGreaterThan(0n)
  expect(await taker.balanceOf(token(name))).toBe(0n)
  return { taker, bought, sold }
}

describe("traps that lock holders later", () => {
  it("a token that sells only within 20 blocks of the buy is `cannot_sell`, and says when it locks", async () => {
    const taker = await takerOn(harness, "1000", 0n)
    const quoted = await quoteBuy("SellWindowToken", taker.address)
    expect(quoted.safety).toMatchObject({ verdict: "cannot_sell", canSell: false, flags: ["liquidity_removable"] })
    expect(quoted.safety?.reason).toMatch(/^sells revert 30 blocks after the buy/)
    expect(quoted.next).toBe("stop")
  })

  it("a token that sells only in even blocks is `cannot_sell` whichever block the quote lands in", async () => {
    const taker = await takerOn(harness, "1000", 0n)
    const first = await quoteBuy("ParityGateToken", taker.address)
    const { clients } = taker
    await clients.test.mine({ blocks: 1 })
    await ops.indexed(await clients.public.getBlockNumber())
    const second = await quoteBuy("ParityGateToken", taker.address)
    expect(second.block).not.toBe(first.block)
    for (const quoted of [first, second]) {
      expect(quoted.safety).toMatchObject({ verdict: "cannot_sell", canSell: false, flags: ["liquidity_removable"] })
      expect(quoted.next).toBe("stop")
    }
  })
})

describe("re-judged at swap time", () => {
  it("a sell tax raised to 90 % between quote and swap answers 409 quote_stale with a replacement that stops", async () => {
    const taker = await takerOn(harness)
    const quoted = await quoteBuy("TaxRaiseToken", taker.address)
    expect(quoted.safety).toMatchObject({ verdict: "ok", flags: TAX_RAISE_FLAGS })
    expect(quoted.next).toBe("swap")

    const raised = await lp.write(
      token("TaxRaiseToken"),
      parseAbi(["function setSellTax(uint256 bps)"]),
      "setSellTax",
      [9_000n]
    )
    await ops.indexed(raised.blockNumber)
    const error = errorOf(await ops.swap({ quoteId: quoted.quoteId, taker: taker.address }))
    expect(error._tag).toBe("QuoteStale")
    expect(error.message).toMatch(/`cannot_sell`, worse than the quote's `ok`/)
    const body = toErrorBody(error)
    expect(body.next).toBe("stop")
    const replacement = (error as { quote?: { safety: { verdict: string }; next: string } }).quote
    expect(replacement?.safety.verdict).toBe("cannot_sell")
    expect(replacement?.next).toBe("stop")
    expect(await taker.balanceOf(token("TaxRaiseToken"))).toBe(0n)
  })
  it("swap/tx re-judges too: a tax raised while the permit is being signed answers quote_stale, without a replacement", async () => {
    await fundLiquidityProvider(harness.devnet.manifest, lp)
    const raising = await deployTrap(lp, "TaxRaiseToken")
    await ops.indexed(BigInt((await listWithPair(harness.devnet.manifest, lp, raising)).block))
    const taker = await takerOn(harness)
    const bought = await trade(taker, { sell: USDC, buy: raising, amount: "100" })
    const quoted = answerOf(
      await ops.quote({ sell: raising, buy: USDC, amount: formatUnits(bought.delivered, 18), taker: taker.address })
    )
    expect(quoted.safety).toMatchObject({ verdict: "ok", flags: TAX_RAISE_FLAGS })
    const built = answerOf(await ops.swap({ quoteId: quoted.quoteId, taker: taker.address }))
    expect(built.next).toBe("sign_permit")
    await ops.indexed((await taker.send(built.transactions[0]!)).blockNumber)

    const raised = await lp.write(raising, parseAbi(["function setSellTax(uint256 bps)"]), "setSellTax", [9_000n])
    await ops.indexed(raised.blockNumber)
    const error = errorOf(
      await ops.swapTx({ quoteId: quoted.quoteId, taker: taker.address, permit: await taker.permitFor(built) })
    )
    expect(error._tag).toBe("QuoteStale")
    expect(error.message).toMatch(/`cannot_sell`, worse than the quote's `ok`/)
    expect("quote" in error ? error.quote : undefined).toBeUndefined()
    expect(toErrorBody(error).next).toBe("requote")
    expect(await taker.balanceOf(raising)).toBe(bought.delivered)
  })
})

describe("odd but honest tokens trade both ways", () => {
  it("a USDT-style token sells from a wallet with a leftover allowance: the approval resets it to 0 first", async () => {
    const taker = await takerOn(harness)
    const quoted = await quoteBuy("ResetApproveToken", taker.address)
    expect(quoted.safety).toMatchObject({ verdict: "ok", canSell: true, flags: ["liquidity_removable"] })
    const bought = await trade(taker, { sell: USDC, buy: token("ResetApproveToken"), amount: "100" })
    const router = contractAddress(harness.devnet.manifest, "router")
    // The state a reverted swap leaves: a small allowance to the router.
    const { clients } = taker
    const hash = await clients.wallet.writeContract({
      account: taker.account,
      chain: clients.chain,
      address: token("ResetApproveToken"),
      abi: erc20Abi,
      functionName: "approve",
      args: [router, 1n]
    })
    await ops.indexed((await clients.public.waitForTransactionReceipt({ hash })).blockNumber)

    const sold = await trade(
      taker,
      { sell: token("ResetApproveToken"), buy: USDC, amount: formatUnits(bought.delivered, 18) },
      { approval: "approve" }
    )
    expect(sold.built.transactions.map((tx) => tx.purpose)).toEqual(["approve", "approve", "swap"])
    const amounts = sold.built.transactions.slice(0, 2).map((tx) => {
      expect(tx.to).toBe(getAddress(token("ResetApproveToken")))
      return decodeFunctionData({ abi: erc20Abi, data: tx.data as `0x${string}` }).args[1]
    })
    expect(amounts).toEqual([0n, bought.delivered])
    expect(sold.delivered).toBeGreaterThan(0n)
    expect(await taker.balanceOf(token("ResetApproveToken"))).toBe(0n)
  })

  it("a token whose Transfer events come from a second address is judged by what moved, and trades", async () => {
    const taker = await takerOn(harness)
    const quoted = await quoteBuy("SecondEmitterToken", taker.address)
    expect(quoted.safety).toMatchObject({ verdict: "ok", canSell: true, flags: ["liquidity_removable"] })
    expect(quoted.next).toBe("swap")
    await roundTrip("SecondEmitterToken")
  })

  it("a token behind an EIP-1967 proxy is flagged `upgradeable`, judged by its behaviour, and trades", async () => {
    const taker = await takerOn(harness)
    const quoted = await quoteBuy("UpgradeableToken", taker.address)
    // The admin's upgradeTo, pointed anywhere but the logic, leaves holders' balances read as 0: an
    // upgrade can do anything, and the simulation sees one thing it does.
    expect(quoted.safety).toMatchObject({
      verdict: "ok",
      canSell: true,
      flags: ["owner_can_move_balances", "upgradeable", "liquidity_removable"]
    })
    const moved = quoted.safety?.powers?.find((p) => p.flag === "owner_can_move_balances")
    expect(moved?.function?.startsWith(toFunctionSelector("function upgradeTo(address)"))).toBe(true)
    expect(quoted.next).toBe("swap")
    await roundTrip("UpgradeableToken")
  })

  it("a token whose owner holds a blacklist setter is flagged `owner_can_stop_sells`, and trades", async () => {
    const taker = await takerOn(harness)
    const quoted = await quoteBuy("BlacklistToken", taker.address)
    expect(quoted.safety).toMatchObject({
      verdict: "ok",
      canSell: true,
      flags: ["owner_can_stop_sells", "liquidity_removable"]
    })
    expect(quoted.next).toBe("swap")
    await roundTrip("BlacklistToken")
  })
})
