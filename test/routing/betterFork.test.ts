/**
 * The operator's case of issue 34 on a private devnet: one v2 fork (`lowfee-v2`, its own factory, init
 * code hash and 0.2 % fee) made the cheapest WETH seller of every venue, its pair's price about 3 % below
 * the rest (WETH given to the pair and synced, as any donor can). A large order over every venue must
 * then use that fork, and the plan must execute on the devnet exactly as priced (receipt `pass`).
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { type Address, erc20Abi, parseAbi } from "viem"
import { poolByLabel, tokenAddress } from "../support/devnet.js"
import { walletFor } from "../support/wallet.js"
import { harnessPerFile, takerOn } from "../swap/harness.js"

const { harness, ops, trade } = harnessPerFile()
const pairAbi = parseAbi([
  "function sync()",
  "function token0() view returns (address)",
  "function getReserves() view returns (uint112, uint112, uint32)"
])
let USDC: Address
let WETH: Address

beforeAll(() => {
  USDC = tokenAddress(harness.devnet.manifest, "USDC")
  WETH = tokenAddress(harness.devnet.manifest, "WETH")
})

describe("a fork priced better than every other venue", () => {
  it("a $30,000 USDC→WETH plan over every venue uses the fork and executes as priced", async () => {
    const { manifest } = harness.devnet
    const taker = await takerOn(harness, "900000")
    const wallet = walletFor(manifest, taker.account)
    // WETH to give the fork's pair, bought through the service as any wallet would.
    await trade(taker, { sell: USDC, buy: WETH, amount: "40000" })
    const pair = poolByLabel(manifest, "lowfee-v2:WETH/USDC").address as Address
    const read = <A>(functionName: "token0" | "getReserves") =>
      taker.clients.public.readContract({ address: pair, abi: pairAbi, functionName }) as Promise<A>
    const [reserve0, reserve1] = await read<readonly [bigint, bigint, number]>("getReserves")
    const wethReserve = (await read<Address>("token0")).toLowerCase() === WETH.toLowerCase() ? reserve0 : reserve1
    const gift = (wethReserve * 3n) / 100n
    expect(await taker.balanceOf(WETH)).toBeGreaterThan(gift)
    await wallet.write(WETH, erc20Abi, "transfer", [pair, gift])
    const synced = await wallet.write(pair, pairAbi, "sync", [])
    await ops.indexed(synced.blockNumber)

    const { delivered, final, quoted } = await trade(taker, { sell: USDC, buy: WETH, amount: "30000", maxSplits: 3 })
    const venues = quoted.best.legs.flatMap((leg) => leg.hops.map((hop) => hop.venue))
    expect(venues, venues.join()).toContain("lowfee-v2")
    // `trade` checked the receipt: `pass`, delivered to the base unit.
    expect(delivered).toBe(BigInt(final.amountOutSimulated))
    expect(delivered).toBe(BigInt(quoted.best.amountOutQuotedRaw))
  })
})
