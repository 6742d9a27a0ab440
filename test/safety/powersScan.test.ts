/**
 * Owner powers measured by simulation (src/safety/powers/): tokens after real rug designs
 * (contracts/safety/PowerTokens.sol), each listed in a fresh v2 USDC pair by its deployer, quoted as an
 * agent would. Each power must be flagged with the function that shows it and the address that holds
 * it; an honest token with a public mint and a holder's own burn must not be; the pair's liquidity is
 * removable while the deployer holds the LP tokens and not once they are burnt.
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { type Address, encodeAbiParameters, getAddress, keccak256, parseAbi, toFunctionSelector } from "viem"
import type { OwnerPower } from "../../schema/Token.js"
import { manifestAccount, tokenAddress } from "../support/devnet.js"
import { deployTrap, fundLiquidityProvider, listWithPair } from "../support/traps.js"
import { type Wallet, walletFor } from "../support/wallet.js"
import { answerOf, harnessPerFile } from "../swap/harness.js"

const { harness, ops } = harnessPerFile()
let lp: Wallet
let USDC: Address
const listed = new Map<string, { token: Address; pair: Address }>()

const TOKENS = [
  "GhostMintToken",
  "HolderSweepToken",
  "SecondHandToken",
  "QuietListToken",
  "TradingGateToken",
  "FeeDialToken",
  "SellCapToken",
  "RouterSwapToken",
  "ProxiedMintToken",
  "OpenMintToken"
]

beforeAll(async () => {
  const { manifest } = harness.devnet
  USDC = tokenAddress(manifest, "USDC")
  lp = walletFor(manifest, manifestAccount(manifest, 2))
  for (const name of TOKENS) {
    await fundLiquidityProvider(manifest, lp)
    const token = await deployTrap(lp, name)
    const { block, pair } = await listWithPair(manifest, lp, token)
    await ops.indexed(BigInt(block))
    listed.set(name, { token, pair })
  }
}, 240_000)

const powersOf = async (name: string) => {
  const quoted = answerOf(await ops.quote({ sell: USDC, buy: listed.get(name)!.token, amount: "100" }))
  return { safety: quoted.safety!, powers: quoted.safety?.powers ?? [] }
}

const selector = (signature: string) => toFunctionSelector(`function ${signature}`)
const keeperOf = (deployer: Address) =>
  getAddress(
    `0x${keccak256(encodeAbiParameters([{ type: "address" }, { type: "string" }], [deployer, "keeper"])).slice(-40)}`
  )

const expectPower = (powers: ReadonlyArray<OwnerPower>, flag: OwnerPower["flag"], fn: string, caller: Address) =>
  expect(powers.filter((p) => p.flag === flag && p.function?.startsWith(selector(fn)) === true && p.caller === caller))
    .not.toHaveLength(0)

describe("powers hidden as real rugs hide them", () => {
  it("a mint that credits a balance without totalSupply, by an admin kept in an unnamed slot", async () => {
    const { safety, powers } = await powersOf("GhostMintToken")
    expect(safety.verdict).toBe("ok")
    expect(safety.flags).toContain("owner_can_mint")
    expectPower(powers, "owner_can_mint", "syncRewards(address,uint256)", keeperOf(lp.address))
    expect(powers.find((p) => p.flag === "owner_can_mint")?.callerRole).toMatch(/storage slot/)
  })

  it("a \"claim\" over a list of holders that sweeps their balances", async () => {
    const { safety, powers } = await powersOf("HolderSweepToken")
    expect(safety.flags).toContain("owner_can_move_balances")
    expectPower(powers, "owner_can_move_balances", "airdropClaim(address[])", keeperOf(lp.address))
  })

  it("a burn of holders' tokens that only a second contract may call", async () => {
    const { safety, powers } = await powersOf("SecondHandToken")
    expect(safety.flags).toContain("owner_can_move_balances")
    const treasury = powers.find((p) => p.flag === "owner_can_move_balances")?.caller
    expect(treasury).toBeDefined()
    const code = await lp.public.getCode({ address: treasury! })
    expect(code?.length ?? 0).toBeGreaterThan(2)
    expectPower(powers, "owner_can_move_balances", "rebalance(address,uint256)", treasury!)
  })

  it.each([
    ["QuietListToken", "zx(address,bool)"],
    ["TradingGateToken", "configure(bool)"],
    ["FeeDialToken", "tune(uint256)"],
    ["SellCapToken", "calibrate(uint256)"],
    ["RouterSwapToken", "updateSwapper(address)"]
  ])("%s: the owner can stop sells through %s", async (name, fn) => {
    const { safety, powers } = await powersOf(name)
    expect(safety.verdict).toBe("ok")
    expect(safety.flags).toContain("owner_can_stop_sells")
    expectPower(powers, "owner_can_stop_sells", fn, lp.address)
  })

  it("a sell fee raised short of confiscatory is `owner_can_set_tax`", async () => {
    const { powers } = await powersOf("FeeDialToken")
    expectPower(powers, "owner_can_set_tax", "tune(uint256)", lp.address)
  })

  it("a capped sell reads as capped", async () => {
    const { powers } = await powersOf("SellCapToken")
    expect(powers.some((p) => p.flag === "owner_can_stop_sells" && /whole balance/.test(p.seen))).toBe(true)
  })

  it("a mint behind an EIP-1967 proxy, by an operator that is no `owner()`", async () => {
    const { safety, powers } = await powersOf("ProxiedMintToken")
    expect(safety.flags).toEqual(expect.arrayContaining(["owner_can_mint", "upgradeable"]))
    expectPower(powers, "owner_can_mint", "settle(address,uint256)", lp.address)
    expect(powers.find((p) => p.flag === "upgradeable")?.caller).toBe(lp.address)
  })
})

describe("honest tokens and pools", () => {
  it("a public capped mint and a holder's own burn are no one's power", async () => {
    const { safety } = await powersOf("OpenMintToken")
    expect(safety.flags?.filter((f) => f.startsWith("owner_can_"))).toEqual([])
  })

  it("a v4 pool whose hook sets a dynamic fee: `hook_can_change_fee` names the hook; the seeded token's owner mint is found", async () => {
    const zap = tokenAddress(harness.devnet.manifest, "ZAP")
    const quoted = answerOf(await ops.quote({ sell: USDC, buy: zap, amount: "100" }))
    const powers = quoted.safety?.powers ?? []
    const hook = powers.find((p) => p.flag === "hook_can_change_fee")
    expect(hook?.callerRole).toBe("v4 hook")
    expect(BigInt(hook!.caller!) & 0x3fffn).not.toBe(0n)
    expect(powers.some((p) => p.flag === "owner_can_mint" && p.function?.startsWith(selector("mint(address,uint256)"))))
      .toBe(true)
  })

  it("the pair's LP tokens with the deployer: `liquidity_removable` with its share; burnt: not", async () => {
    const { pair } = listed.get("OpenMintToken")!
    const before = await powersOf("OpenMintToken")
    const removable = before.powers.find((p) => p.flag === "liquidity_removable")
    expect(removable?.caller).toBe(lp.address)
    expect(removable?.poolId?.toLowerCase()).toBe(pair.toLowerCase())
    expect(removable?.shareBps).toBeGreaterThan(9_900)

    const lpAbi = parseAbi([
      "function balanceOf(address) view returns (uint256)",
      "function transfer(address,uint256) returns (bool)"
    ])
    const held = await lp.public.readContract({
      address: pair,
      abi: lpAbi,
      functionName: "balanceOf",
      args: [lp.address]
    })
    const burnt = await lp.write(pair, lpAbi, "transfer", ["0x000000000000000000000000000000000000dEaD", held])
    await ops.indexed(burnt.blockNumber)
    const after = await powersOf("OpenMintToken")
    expect(after.safety.flags).not.toContain("liquidity_removable")
  })
})
