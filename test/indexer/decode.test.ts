/**
 * The hand-written log decoder against the contracts' own ABIs: every topic matches the compiled
 * event, and logs encoded by viem from those ABIs decode to the same values, signs and all.
 */
import { describe, expect, it } from "@effect/vitest"
import { type Abi, type AbiEvent, encodeAbiParameters, encodeEventTopics, type Hex, toEventSelector } from "viem"
import { type ArtifactName, loadArtifact } from "../../devnet/Artifacts.js"
import { lowerAddress, USDC_ADDRESS } from "../../schema/Chain.js"
import { decodeLog, type RawLog } from "../../src/indexer/Decode.js"
import { topics } from "../../src/indexer/Events.js"
import type { Sources } from "../../src/indexer/Sources.js"
import { hexOf } from "../support/hex.js"

const factory = lowerAddress("0x00000000000000000000000000000000000000f1")
const pool = lowerAddress("0x00000000000000000000000000000000000000a1")
const manager = lowerAddress("0x00000000000000000000000000000000000000f4")
const launchpad = lowerAddress("0x00000000000000000000000000000000000000aa")
const sources: Sources = {
  v2Factories: new Map([[factory, "uniswap-v2"]]),
  v3Factories: new Map([[factory, "uniswap-v3"]]),
  v4Managers: new Map([[manager, "uniswap-v4"]]),
  forkV3Swaps: new Map(),
  v2Fees: new Map([["uniswap-v2", { _tag: "Fixed", feePips: 3000 }]]),
  launchpads: new Map([[launchpad, "launchpad"]]),
  usdc: USDC_ADDRESS
}

const eventOf = (artifact: ArtifactName, name: string, inputs?: number): AbiEvent => {
  const found = (loadArtifact(artifact).abi as Abi).filter(
    (item): item is AbiEvent =>
      item.type === "event" && item.name === name && (inputs === undefined || item.inputs.length === inputs)
  )
  expect(found).toHaveLength(1)
  return found[0]!
}

const logOf = (emitter: `0x${string}`, event: AbiEvent, args: Record<string, unknown>): RawLog => {
  const data = event.inputs.filter((input) => !input.indexed)
  return {
    address: emitter,
    topics: encodeEventTopics({ abi: [event], eventName: event.name, args } as never) as ReadonlyArray<`0x${string}`>,
    data: encodeAbiParameters(data, data.map((input) => args[input.name!])),
    blockNumber: "0x10",
    blockHash: `0x${"ab".repeat(32)}`,
    transactionHash: `0x${"cd".repeat(32)}`,
    logIndex: "0x3"
  }
}

describe("event topics", () => {
  it.each(
    [
      ["UniswapV2Factory", "PairCreated", topics.PairCreated],
      ["UniswapV2Pair", "Sync", topics.Sync],
      ["UniswapV2Pair", "Swap", topics.V2Swap],
      ["UniswapV3Factory", "PoolCreated", topics.PoolCreated],
      ["UniswapV3Pool", "Initialize", topics.V3Initialize],
      ["UniswapV3Pool", "Mint", topics.V3Mint],
      ["UniswapV3Pool", "Burn", topics.V3Burn],
      ["UniswapV3Pool", "Swap", topics.V3Swap],
      ["PoolManager", "Initialize", topics.V4Initialize],
      ["PoolManager", "ModifyLiquidity", topics.ModifyLiquidity],
      ["PoolManager", "Swap", topics.V4Swap],
      ["PoolManager", "ProtocolFeeUpdated", topics.ProtocolFeeUpdated],
      ["Launchpad", "TokenCreated", topics.TokenCreated],
      ["Launchpad", "CurveTrade", topics.CurveTrade],
      ["Launchpad", "Graduated", topics.Graduated],
      ["DevToken", "Transfer", topics.Transfer]
    ] as const
  )("%s.%s", (artifact, name, topic) => {
    expect(toEventSelector(eventOf(artifact, name))).toBe(topic)
  })
})

describe("decodeLog", () => {
  it("v3 swaps keep signs of amounts and ticks", () => {
    const event = decodeLog(
      logOf(pool, eventOf("UniswapV3Pool", "Swap"), {
        sender: factory,
        recipient: launchpad,
        amount0: -123456789n,
        amount1: 987654321n,
        sqrtPriceX96: 2n ** 90n,
        liquidity: 10n ** 20n,
        tick: -12345
      }),
      sources,
      1_700_000_000
    )
    expect(event).toMatchObject({
      _tag: "V3Swap",
      emitter: pool,
      amount0: -123456789n,
      amount1: 987654321n,
      sqrtPriceX96: 2n ** 90n,
      liquidity: 10n ** 20n,
      tick: -12345,
      recipient: launchpad,
      at: { block: 16, time: 1_700_000_000, logIndex: 3 }
    })
  })

  it("a v3 fork's own Swap event (PancakeSwap's, two fields longer) decodes only when its venue names it", () => {
    const event = eventOf("PancakeV3Pool", "Swap")
    const log = logOf(pool, event, {
      sender: factory,
      recipient: launchpad,
      amount0: 5n,
      amount1: -7n,
      sqrtPriceX96: 2n ** 96n,
      liquidity: 10n ** 18n,
      tick: -3,
      protocolFeesToken0: 11n,
      protocolFeesToken1: 0n
    })
    const named: Sources = { ...sources, forkV3Swaps: new Map([[hexOf(toEventSelector(event)), 7]]) }
    expect(decodeLog(log, named, 0)).toMatchObject({
      _tag: "V3Swap",
      amount0: 5n,
      amount1: -7n,
      sqrtPriceX96: 2n ** 96n,
      liquidity: 10n ** 18n,
      tick: -3,
      recipient: launchpad
    })
    expect(decodeLog(log, sources, 0)).toBeUndefined()
    expect(decodeLog({ ...log, data: hexOf(log.data.slice(0, -64)) }, named, 0)).toBeUndefined()
  })

  it("v3 mint and burn become signed liquidity changes over indexed ticks", () => {
    const mint = decodeLog(
      logOf(pool, eventOf("UniswapV3Pool", "Mint"), {
        sender: factory,
        owner: factory,
        tickLower: -887220,
        tickUpper: -60,
        amount: 5n ** 30n,
        amount0: 1n,
        amount1: 2n
      }),
      sources,
      0
    )
    expect(mint).toMatchObject({ _tag: "V3Liquidity", tickLower: -887220, tickUpper: -60, delta: 5n ** 30n })
    const burn = decodeLog(
      logOf(pool, eventOf("UniswapV3Pool", "Burn"), {
        owner: factory,
        tickLower: -600,
        tickUpper: 600,
        amount: 7n,
        amount0: 1n,
        amount1: 2n
      }),
      sources,
      0
    )
    expect(burn).toMatchObject({ _tag: "V3Liquidity", tickLower: -600, tickUpper: 600, delta: -7n })
  })

  it("v4 events from the pool manager: dynamic fee, hooks, negative liquidity delta", () => {
    const id = `0x${"12".repeat(32)}` as Hex
    const init = decodeLog(
      logOf(manager, eventOf("PoolManager", "Initialize"), {
        id,
        currency0: "0x0000000000000000000000000000000000000000",
        currency1: sources.usdc,
        fee: 0x800000,
        tickSpacing: 60,
        hooks: "0x0000000000000000000000000000000000001080",
        sqrtPriceX96: 2n ** 96n,
        tick: -1
      }),
      sources,
      0
    )
    expect(init).toMatchObject({ _tag: "V4Initialize", id, fee: 0x800000, tickSpacing: 60, tick: -1 })
    const modify = decodeLog(
      logOf(manager, eventOf("PoolManager", "ModifyLiquidity"), {
        id,
        sender: factory,
        tickLower: -120,
        tickUpper: 120,
        liquidityDelta: -(10n ** 18n),
        salt: `0x${"00".repeat(32)}`
      }),
      sources,
      0
    )
    expect(modify).toMatchObject({ _tag: "V4ModifyLiquidity", delta: -(10n ** 18n), tickLower: -120, tickUpper: 120 })
  })

  it("launchpad creations carry name and symbol", () => {
    const created = decodeLog(
      logOf(launchpad, eventOf("Launchpad", "TokenCreated"), {
        token: pool,
        creator: factory,
        name: "Rocket Dog",
        symbol: "RDOG",
        supply: 10n ** 27n
      }),
      sources,
      0
    )
    expect(created).toMatchObject({
      _tag: "TokenCreated",
      token: pool,
      creator: factory,
      name: "Rocket Dog",
      symbol: "RDOG"
    })
  })

  it("curve trades keep their direction", () => {
    const trade = (isBuy: boolean) =>
      decodeLog(
        logOf(launchpad, eventOf("Launchpad", "CurveTrade"), {
          token: pool,
          trader: factory,
          isBuy,
          usdcAmount: 7_000_000n,
          tokenAmount: 3n * 10n ** 21n
        }),
        sources,
        0
      )
    const fields = {
      _tag: "CurveTrade",
      token: pool,
      trader: factory,
      usdcAmount: 7_000_000n,
      tokenAmount: 3n * 10n ** 21n
    }
    expect(trade(true)).toMatchObject({ ...fields, isBuy: true })
    expect(trade(false)).toMatchObject({ ...fields, isBuy: false })
  })

  it("ignores factory events from unknown contracts and ERC-721 transfers", () => {
    const pairCreated = logOf(pool, eventOf("UniswapV2Factory", "PairCreated"), {
      token0: factory,
      token1: launchpad,
      pair: pool,
      "": 1n
    })
    expect(decodeLog(pairCreated, sources, 0)).toBeUndefined()
    const nft: RawLog = {
      ...pairCreated,
      topics: [topics.Transfer, `0x${"00".repeat(32)}`, `0x${"00".repeat(32)}`, `0x${"00".repeat(31)}07`],
      data: "0x"
    }
    expect(decodeLog(nft, sources, 0)).toBeUndefined()
  })
})
