/**
 * The safety verdict against tokens built to fool it, deployed on a private devnet with a plain v2
 * pair against USDC (the service indexes them like any new listing): a token that lets sells through
 * only when the context looks simulated, one whose balanceOf lies, one whose sell transfer returns
 * false without moving, and one that blocks sells whose caller is not the transaction's origin. None
 * may come out `ok`; each must say why.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Address } from "viem"
import { manifestAccount, type PrivateDevnet, startDevnet } from "../support/devnet.js"
import { deployTrap, fundLiquidityProvider, listWithPair } from "../support/traps.js"
import { walletFor } from "../support/wallet.js"
import { checkToken, E6, type SafetyRuntime, safetyRuntime, type Snapshot, snapshotOf } from "./safetyHarness.js"

let devnet: PrivateDevnet
let runtime: SafetyRuntime
let snapshot: Snapshot
const traps = new Map<string, Address>()

beforeAll(async () => {
  devnet = await startDevnet()
  const lp = walletFor(devnet.manifest, manifestAccount(devnet.manifest, 2))
  await fundLiquidityProvider(devnet.manifest, lp)
  for (const name of ["SimulationAwareToken", "BalanceLieToken", "FalseTransferToken", "OriginGuardToken"]) {
    const token = await deployTrap(lp, name)
    await listWithPair(devnet.manifest, lp, token)
    traps.set(name, token)
  }
  runtime = safetyRuntime(devnet.manifest)
  snapshot = await snapshotOf(runtime)
}, 120_000)

afterAll(async () => {
  await runtime?.dispose()
  await devnet?.stop()
})

const check = (name: string) => checkToken(runtime, snapshot, devnet.manifest, traps.get(name)!, 100n * E6)

describe("safety verdicts on adversarial tokens", () => {
  it("a token that only sells in a simulated-looking context (gas price, base fee, coinbase 0) cannot be sold", async () => {
    const verdict = await check("SimulationAwareToken")
    expect(verdict.verdict).toBe("cannot_sell")
    expect(verdict.canSell).toBe(false)
    expect(verdict.reason).toMatch(/sell-back reverted/)
  })

  it("a token whose balanceOf reports more than the wallet received is not called safe", async () => {
    const verdict = await check("BalanceLieToken")
    expect(verdict.verdict).toBe("cannot_sell")
    expect(verdict.canSell).toBe(false)
  })

  it("a sell transfer that returns false without moving is a failed sell, not a free one", async () => {
    const verdict = await check("FalseTransferToken")
    expect(verdict.verdict).toBe("cannot_sell")
    expect(verdict.reason).toMatch(/TokenCallFailed/)
  })

  it("a tx.origin guard that blocks routers is caught through the same router a swap would use", async () => {
    const verdict = await check("OriginGuardToken")
    expect(verdict.verdict).toBe("cannot_sell")
  })

  it("each verdict is scoped to the block it was measured at, from a fresh EOA", async () => {
    const verdict = await check("FalseTransferToken")
    expect(verdict.scope).toEqual({ block: snapshot.state.block, walletProfile: "fresh_eoa" })
  })
})
