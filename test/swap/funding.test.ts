/**
 * How `swap` funds a trade (issue 19, items 1 and 3): an `approval` the caller names is honoured even
 * when the native balance would cover a USDC sell; with none named, a native-funded plan that reverts
 * in the taker's simulation falls back to the Permit2 plan (here on a router deployed without native
 * funding, as on a chain where native value cannot pay); and an exactOut trade states and delivers
 * exactly the amount asked.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { type Address, getAddress, type Hex, parseAbi } from "viem"
import { loadArtifact } from "../../devnet/Artifacts.js"
import { readVenueTable } from "../../src/execution/DeployedVenueTable.js"
import { clientsFor, contractAddress, freshAccount, tokenAddress } from "../support/devnet.js"
import { indexRuntime, synced } from "../support/services.js"
import { harnessPerFile, operationsOf, type Runtime, takerOn, tradingWith } from "./harness.js"

const { harness, trade } = harnessPerFile()
let USDC: Address
let WETH: Address
let router: Address

beforeAll(async () => {
  USDC = tokenAddress(harness.devnet.manifest, "USDC")
  WETH = tokenAddress(harness.devnet.manifest, "WETH")
  router = contractAddress(harness.devnet.manifest, "router")
})

describe("the approval flow the caller names", () => {
  it("`approve` named: an exact ERC-20 approval and no native value, though the native balance covers the sell", async () => {
    const taker = await takerOn(harness, "100000", 2_000n)
    const { built, delivered } = await trade(taker, { sell: USDC, buy: WETH, amount: "1500" }, { approval: "approve" })
    expect(built.transactions.map((tx) => tx.purpose)).toEqual(["approve", "swap"])
    expect(built.transactions[0]!.to).toBe(getAddress(USDC))
    expect(built.transactions.map((tx) => tx.value)).toEqual(["0", "0"])
    expect(delivered).toBe(BigInt(built.amountOutSimulated))
  })

  it("`permit2` named: the Permit2 flow, with its signature", async () => {
    const taker = await takerOn(harness, "100000", 2_000n)
    const { built, final } = await trade(taker, { sell: USDC, buy: WETH, amount: "1200" }, { approval: "permit2" })
    expect(built.next).toBe("sign_permit")
    expect(final.transactions.every((tx) => tx.value === "0")).toBe(true)
  })
})

const routerViews = parseAbi(["function permit2() view returns (address)", "function usdc() view returns (address)"])

/** The devnet's router again, for the same venue table, but deployed with native funding off (`NATIVE_NONE`). */
const routerWithoutNative = async (): Promise<Address> => {
  const { manifest } = harness.devnet
  const account = await freshAccount(manifest, "10")
  const clients = clientsFor(manifest, account)
  const read = (functionName: "permit2" | "usdc") =>
    clients.public.readContract({ address: router, abi: routerViews, functionName })
  const venues = await readVenueTable(clients.public, router)
  const config = { permit2: await read("permit2"), usdc: await read("usdc"), nativeMode: 0, venues }
  const artifact = loadArtifact("TradeRouter")
  const hash = await clients.wallet.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode as Hex,
    args: [config],
    account,
    chain: clients.chain
  })
  return (await clients.public.waitForTransactionReceipt({ hash })).contractAddress!
}

describe("a native-funded plan that reverts", () => {
  let runtime: Runtime
  afterAll(() => runtime?.dispose())

  it("falls back to the Permit2 plan when the caller named no approval, and that plan fills", async () => {
    const noNative = await routerWithoutNative()
    const { manifest } = harness.devnet
    runtime = indexRuntime({ ...manifest, contracts: { ...manifest.contracts, router: noNative } })
    await runtime.runPromise(synced)
    const other = operationsOf(runtime)
    const taker = await takerOn(harness, "100000", 2_000n)
    await other.indexed(await clientsFor(harness.devnet.manifest).public.getBlockNumber())
    const { built, delivered, final } = await tradingWith(() => other).trade(taker, {
      sell: USDC,
      buy: WETH,
      amount: "1500"
    })
    expect(built.next).toBe("sign_permit")
    expect(final.transactions.at(-1)!.to).toBe(getAddress(noNative))
    expect(final.transactions.every((tx) => tx.value === "0")).toBe(true)
    expect(delivered).toBe(BigInt(final.amountOutSimulated))
  })
})

describe("exactOut states and delivers exactly the amount asked", () => {
  it("0.5 WETH asked: quoted as 0.5, simulated as 0.5, and 0.5 arrives", async () => {
    const taker = await takerOn(harness)
    const { built, delivered, quoted } = await trade(taker, { sell: USDC, buy: WETH, amount: "0.5", side: "exactOut" })
    expect(quoted.best.amountOutQuoted).toBe("0.5")
    expect(quoted.best.amountOutQuotedRaw).toBe("500000000000000000")
    expect(quoted.best.minAmountOutRaw).toBe("500000000000000000")
    expect(built.amountOutSimulated).toBe("500000000000000000")
    expect(delivered).toBe(500_000_000_000_000_000n)
  })
})
