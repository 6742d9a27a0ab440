/**
 * An exact-output chain through a transfer-taxed middle token (docs/router.md, "Where exactness ends"):
 * the chain's link sends the middle token straight to the pool above it, which receives it short of the
 * tax and refuses. A TaxToken (5 % on buys and sells) listed as a hub, in v2 pairs with USDC and with an
 * honest token; what an agent asking for an exact output of the honest token gets from the service, and
 * of the taxed token itself.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type Address, getAddress, parseUnits } from "viem"
import { loadArtifact } from "../../devnet/Artifacts.js"
import { rowOf } from "../../schema/ErrorTable.js"
import type { Manifest } from "../../schema/Manifest.js"
import { contractAddress, manifestAccount, type PrivateDevnet, startDevnet, tokenAddress } from "../support/devnet.js"
import { indexRuntime, synced } from "../support/services.js"
import { deployTrap, fundLiquidityProvider, trapAbi } from "../support/traps.js"
import { type Wallet, walletFor } from "../support/wallet.js"
import { answerOf, errorOf, type Harness, operationsOf, takerOn, tradingWith } from "./harness.js"

let devnet: PrivateDevnet
let harness: Harness
let lp: Wallet
let USDC: Address
let TAX: Address
let COIN: Address
let ops: ReturnType<typeof operationsOf>
const { trade } = tradingWith(() => ops)

/** A v2 pair of `a` and `b` seeded with `amountA` and `amountB`, registered with both tokens as a pool. */
const pairOf = async (manifest: Manifest, a: Address, b: Address, amountA: bigint, amountB: bigint) => {
  const factory = contractAddress(manifest, "v2Factory")
  const factoryAbi = loadArtifact("UniswapV2Factory").abi
  await lp.write(factory, factoryAbi, "createPair", [a, b])
  const pair = (await lp.public.readContract({
    address: factory,
    abi: factoryAbi,
    functionName: "getPair",
    args: [a, b]
  })) as Address
  for (const token of [a, b]) if (token !== USDC) await lp.write(token, trapAbi, "setPool", [pair, true])
  await lp.transfer(a, pair, amountA)
  await lp.transfer(b, pair, amountB)
  await lp.write(pair, loadArtifact("UniswapV2Pair").abi, "mint", [lp.address])
  return pair
}

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
  it("quoted with the tax measured; swap refuses it (swap_reverts, next stop) and hands out nothing", async () => {
    const quoted = answerOf(await ops.quote({ sell: USDC, buy: COIN, amount: "100", side: "exactOut" }))
    // The only path runs through the taxed hub, as a chain: USDC → THUB, then THUB → OPEN paying the recipient.
    expect(quoted.best.legs[0]!.hops.map((hop) => getAddress(hop.tokenOutAddress))).toEqual([TAX, COIN])
    // The verdict measures the hub's tax on the route's buy (twice 5 %: into the router, then into the pair),
    // and the quote is priced with it; by the spec's stop rule the quote still says `swap`.
    expect(quoted.safety?.verdict).toBe("taxed")
    expect(quoted.safety?.buyTaxBps).toBeGreaterThan(900)
    expect(quoted.next).toBe("swap")

    // The chain's link sends THUB straight to the OPEN pair, which receives 5 % short and refuses: the
    // taker's simulation reverts, so no plan is returned, in either funding flow (the taker holds ERC-20
    // USDC for the approval flow).
    const taker = await takerOn(harness, "100000", 200n)
    const before = await Promise.all([taker.balanceOf(USDC), taker.balanceOf(COIN)])
    for (const approval of ["permit2", "approve"]) {
      const refused = errorOf(await ops.swap({ quoteId: quoted.quoteId, taker: taker.address, approval }))
      expect(refused._tag).toBe("SwapReverts")
      expect(refused.message).toContain("PairInputShort(")
      expect(rowOf(refused)).toEqual({ code: "swap_reverts", status: 422, next: "stop" })
    }
    expect(await Promise.all([taker.balanceOf(USDC), taker.balanceOf(COIN)])).toEqual(before)
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
