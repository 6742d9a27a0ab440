/**
 * The operator's case of issue 34 on a private devnet. First, one v2 fork of the devnet (`lowfee-v2`, its
 * own factory, init code hash and 0.2 % fee) made the cheapest WETH seller of every venue, its pair's
 * price about 3 % below the rest (WETH given to the pair and synced, as any donor can). Then, as the
 * issue's operator did, a fork the service had never seen: a new factory of the 0.2 % fork with a
 * shallow USDC/WETH pair ($15,000 a side) priced 5 % better than the rest, added to the venue file, a
 * router deployed for that file, the service started on it. Either way a $30,000 order over every venue
 * must use the fork, and the plan must execute on the devnet exactly as priced (receipt `pass`).
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { type Address, erc20Abi, getAddress, keccak256, parseAbi, parseEther, parseUnits } from "viem"
import { loadArtifact } from "../../devnet/Artifacts.js"
import { NativeMode, routerConfigOf } from "../../devnet/router.js"
import { VenueFile } from "../../schema/VenueFile.js"
import { deploy } from "../router/fixtures.js"
import { poolByLabel, tokenAddress } from "../support/devnet.js"
import { indexRuntime, synced } from "../support/services.js"
import { walletFor } from "../support/wallet.js"
import { harnessPerFile, operationsOf, takerOn, tradingWith } from "../swap/harness.js"

const { harness, ops, trade } = harnessPerFile()
const pairAbi = parseAbi([
  "function sync()",
  "function token0() view returns (address)",
  "function getReserves() view returns (uint112, uint112, uint32)",
  "function mint(address to) returns (uint256)",
  "function deposit() payable"
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

  it("a new fork, shallow and 5 % better, added to the venue file with its router: the plan uses it", async () => {
    const { manifest } = harness.devnet
    const taker = await takerOn(harness, "900000")
    const lp = walletFor(manifest, taker.account)
    await trade(taker, { sell: USDC, buy: WETH, amount: "20000" })
    await lp.write(USDC, pairAbi, "deposit", [], parseEther("20000"))
    // The market's price: what $1,000 buys over every venue; the new pair sells WETH 5 % cheaper.
    const market = await ops.quote({ sell: USDC, buy: WETH, amount: "1000" })
    const perThousand = BigInt((market.ok ? market.answer : expect.fail("no quote")).best.amountOutQuotedRaw)
    const usdcSide = parseUnits("15000", 6)
    const wethSide = (perThousand * 15n * 105n) / 100n
    const factoryAbi = loadArtifact("UniswapV2Factory").abi
    const factory = await deploy(lp, loadArtifact("UniswapV2Fork20Factory"), [lp.address])
    await lp.write(factory, factoryAbi, "createPair", [USDC, WETH])
    const pair = getAddress(
      (await lp.public.readContract({
        address: factory,
        abi: factoryAbi,
        functionName: "getPair",
        args: [USDC, WETH]
      })) as Address
    )
    await lp.transfer(USDC, pair, usdcSide)
    await lp.transfer(WETH, pair, wethSide)
    await lp.write(pair, pairAbi, "mint", [lp.address])

    const file = Schema.decodeUnknownSync(VenueFile)({
      ...manifest.venues!,
      venues: [...manifest.venues!.venues, {
        id: "newfork-v2",
        name: "A v2 fork at 0.2 % the service had never seen",
        family: "v2",
        factory,
        pairInitCodeHash: keccak256(loadArtifact("UniswapV2Fork20Pair").bytecode),
        fee: { fixed: 2000 }
      }]
    })
    const router = await deploy(lp, loadArtifact("TradeRouter"), [routerConfigOf(file, USDC, NativeMode.deposit)])
    const runtime = indexRuntime({ ...manifest, venues: file, contracts: { ...manifest.contracts, router } })
    try {
      await runtime.runPromise(synced)
      const withFork = tradingWith(() => operationsOf(runtime))
      const { delivered, final, quoted } = await withFork.trade(taker, {
        sell: USDC,
        buy: WETH,
        amount: "30000",
        maxSplits: 3
      })
      const venues = quoted.best.legs.flatMap((leg) => leg.hops.map((hop) => hop.venue))
      expect(venues, venues.join()).toContain("newfork-v2")
      expect(delivered).toBe(BigInt(final.amountOutSimulated))
      expect(delivered).toBe(BigInt(quoted.best.amountOutQuotedRaw))
    } finally {
      await runtime.dispose()
    }
  })
})
