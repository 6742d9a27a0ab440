/**
 * An exact-output chain through a transfer-taxed middle token (docs/router.md, "Where exactness ends"):
 * the chain's link sends the middle token straight to the pool above it, which receives it short of the
 * tax and refuses, so the quote must route around the hub or refuse. A TaxToken (5 % on buys and sells)
 * listed as a hub, in v2 pairs with USDC and with two honest tokens, one of which also has a shallow
 * pair of its own with USDC; what an agent asking for an exact output of each gets, and of the taxed
 * token itself.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type Address, getAddress, parseUnits } from "viem"
import { loadArtifact } from "../../devnet/Artifacts.js"
import { rowOf } from "../../schema/ErrorTable.js"
import type { Manifest } from "../../schema/Manifest.js"
import { manifestAccount, type PrivateDevnet, startDevnet, tokenAddress } from "../support/devnet.js"
import { indexRuntime, synced } from "../support/services.js"
import { deployTrap, fundLiquidityProvider, seededPair } from "../support/traps.js"
import { type Wallet, walletFor } from "../support/wallet.js"
import { answerOf, errorOf, type Harness, operationsOf, takerOn, tradingWith } from "./harness.js"

let devnet: PrivateDevnet
let harness: Harness
let lp: Wallet
let USDC: Address
let TAX: Address
let COIN: Address
let SIDE: Address
let ops: ReturnType<typeof operationsOf>
const { trade } = tradingWith(() => ops)

/** A v2 pair of `a` and `b` seeded with `amountA` and `amountB`. */
const pairOf = (manifest: Manifest, a: Address, b: Address, amountA: bigint, amountB: bigint) =>
  seededPair(manifest, lp, [a, b], [amountA, amountB])

beforeAll(async () => {
  devnet = await startDevnet()
  const { manifest } = devnet
  USDC = tokenAddress(manifest, "USDC")
  lp = walletFor(manifest, manifestAccount(manifest, 2))
  await fundLiquidityProvider(manifest, lp)
  const treasury = manifestAccount(manifest, 7).address
  const { abi, bytecode } = loadArtifact("TaxToken")
  const hash = await lp.wallet.deployContract({
    abi,
    bytecode,
    args: ["Taxed Hub", "THUB", parseUnits("1000000000", 18), 500, 500, treasury],
    account: lp.account,
    chain: lp.chain
  } as never)
  TAX = getAddress((await lp.public.waitForTransactionReceipt({ hash })).contractAddress!)
  COIN = await deployTrap(lp, "OpenMintToken")
  await pairOf(manifest, TAX, USDC, parseUnits("50000", 18), parseUnits("50000", 6))
  await pairOf(manifest, TAX, COIN, parseUnits("50000", 18), parseUnits("50000", 18))
  // Through the hub, 100 SIDE costs ~101 USDC before the tax; straight from this shallow pair, ~105.
  SIDE = await deployTrap(lp, "OpenMintToken")
  await pairOf(manifest, TAX, SIDE, parseUnits("50000", 18), parseUnits("50000", 18))
  await pairOf(manifest, USDC, SIDE, parseUnits("2000", 6), parseUnits("2000", 18))
  const listed: Manifest = {
    ...manifest,
    tokenList: {
      ...manifest.tokenList,
      tokens: [...manifest.tokenList.tokens, {
        chainId: manifest.chainId,
        address: TAX,
        name: "Taxed Hub",
        symbol: "THUB",
        decimals: 18,
        tags: ["hub"]
      }]
    }
  }
  const runtime = indexRuntime(listed)
  await runtime.runPromise(synced)
  harness = { devnet, runtime, stop: () => runtime.dispose() }
  ops = operationsOf(runtime)
}, 120_000)
afterAll(async () => {
  await harness?.stop()
  await devnet?.stop()
})

describe("exact output through a transfer-taxed hub", () => {
  it("whose only path chains through the hub: 422 no_route, next stop, naming the hub; nothing quoted", async () => {
    const refused = errorOf(await ops.quote({ sell: USDC, buy: COIN, amount: "100", side: "exactOut" }))
    expect(refused._tag).toBe("NoRoute")
    expect(rowOf(refused)).toEqual({ code: "no_route", status: 422, next: "stop" })
    expect(refused.message).toContain("cannot chain through THUB")
    expect("hint" in refused ? refused.hint : undefined).toContain("exactIn")
  })

  it("beside a dearer path that avoids it: routed around the hub, swapped, exactly the amount delivered", async () => {
    const taker = await takerOn(harness)
    const amount = parseUnits("100", 18)
    const { delivered, quoted } = await trade(taker, { sell: USDC, buy: SIDE, amount: "100", side: "exactOut" })
    expect(quoted.best.legs.flatMap((leg) => leg.hops.map((hop) => getAddress(hop.tokenOutAddress)))).toEqual([SIDE])
    // Dearer than the hub's untaxed price (~101 USDC), as the shallow pair asks.
    expect(BigInt(quoted.best.amountInRaw)).toBeGreaterThan(parseUnits("105", 6))
    expect(quoted.safety?.buyTaxBps ?? 0).toBe(0)
    expect(delivered).toBe(amount)
  })

  it("exact output of the taxed token itself: swap_reverts, not quote_stale (quoting again cannot fill it)", async () => {
    const quoted = answerOf(await ops.quote({ sell: USDC, buy: TAX, amount: "100", side: "exactOut" }))
    expect(quoted.safety?.buyTaxBps).toBe(500)
    const taker = await takerOn(harness)
    // The pair sends exactly what the plan asks; the token keeps 5 % of it on the way to the taker.
    const refused = errorOf(await ops.swap({ quoteId: quoted.quoteId, taker: taker.address }))
    expect(refused.message).toContain("InsufficientOutput(")
    expect(refused._tag).toBe("SwapReverts")
    expect(rowOf(refused)).toEqual({ code: "swap_reverts", status: 422, next: "stop" })
    expect("quote" in refused ? refused.quote : undefined).toBeUndefined()
  })

  it("the same trade exact in executes through the hub, at least the quoted minimum, receipt pass", async () => {
    const taker = await takerOn(harness)
    const { delivered, quoted } = await trade(taker, { sell: USDC, buy: COIN, amount: "100" })
    expect(quoted.best.legs[0]!.hops.map((hop) => getAddress(hop.tokenOutAddress))).toEqual([TAX, COIN])
    expect(delivered).toBeGreaterThanOrEqual(BigInt(quoted.best.minAmountOutRaw))
  })
})
