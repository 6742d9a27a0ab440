/**
 * The safety verdict against tokens built to fool it, deployed on a private devnet with a plain v2
 * pair against USDC (the service indexes them like any new listing): a token that lets sells through
 * only when the context looks simulated, one whose balanceOf lies, one whose sell transfer returns
 * false without moving, and one that blocks sells whose caller is not the transaction's origin. None
 * may come out `ok`; each must say why.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { type Abi, type Address, getAddress, type Hex, parseAbi, parseEther, parseUnits } from "viem"
import { loadArtifact } from "../../devnet/Artifacts.js"
import { clientsFor, contractAddress, manifestAccount, type PrivateDevnet, startDevnet } from "../support/devnet.js"
import { type Wallet, walletFor } from "../support/wallet.js"
import { checkToken, E6, type SafetyRuntime, safetyRuntime, type Snapshot, snapshotOf } from "./safetyHarness.js"

const artifact = (name: string) =>
  JSON.parse(readFileSync(`build/contracts/${name}.json`, "utf8")) as { abi: Abi; bytecode: Hex }

const trapAbi = parseAbi(["function setPool(address pool, bool enabled)"])
const usdcAbi = parseAbi(["function deposit() payable"])

let devnet: PrivateDevnet
let runtime: SafetyRuntime
let snapshot: Snapshot
const traps = new Map<string, Address>()

const deploy = async (lp: Wallet, name: string) => {
  const { abi, bytecode } = artifact(name)
  const hash = await lp.wallet.deployContract({
    abi,
    bytecode,
    args: [parseUnits("1000000000", 18)],
    account: lp.account,
    chain: lp.chain
  } as never)
  const receipt = await lp.public.waitForTransactionReceipt({ hash })
  if (receipt.contractAddress == null) throw new Error(`${name} did not deploy`)
  return getAddress(receipt.contractAddress)
}

/** A v2 pair token/USDC at 1 USDC per token with $50,000 a side, registered with the token as a pool. */
const listWithPair = async (lp: Wallet, token: Address) => {
  const factory = contractAddress(devnet.manifest, "v2Factory")
  const usdc = contractAddress(devnet.manifest, "usdc")
  const factoryAbi = loadArtifact("UniswapV2Factory").abi
  await lp.write(factory, factoryAbi, "createPair", [token, usdc])
  const pair = (await lp.public.readContract({
    address: factory,
    abi: factoryAbi,
    functionName: "getPair",
    args: [token, usdc]
  })) as Address
  await lp.write(token, trapAbi, "setPool", [pair, true])
  await lp.transfer(token, pair, parseUnits("50000", 18))
  await lp.transfer(usdc, pair, parseUnits("50000", 6))
  await lp.write(pair, loadArtifact("UniswapV2Pair").abi, "mint", [lp.address])
}

beforeAll(async () => {
  devnet = await startDevnet()
  const lp = walletFor(devnet.manifest, manifestAccount(devnet.manifest, 2))
  await clientsFor(devnet.manifest).test.setBalance({ address: lp.address, value: parseEther("1000000") })
  await lp.write(contractAddress(devnet.manifest, "usdc"), usdcAbi, "deposit", [], parseEther("300000"))
  for (const name of ["SimulationAwareToken", "BalanceLieToken", "FalseTransferToken", "OriginGuardToken"]) {
    const token = await deploy(lp, name)
    await listWithPair(lp, token)
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
