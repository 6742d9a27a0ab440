/**
 * A generated market as raw `eth_getLogs` entries, encoded exactly as a node returns them, so that a
 * benchmark can push it through the indexer's own decode and apply path. Each pool is a v2 pair of a
 * new token with USDC (one in ten against a hub token instead): the token's constructor mint, the
 * pair creation, liquidity (two transfers, the LP mint, Sync) and `swapsPerPool` swaps (two transfers,
 * Sync, Swap). Tickers are random three-to-five letter words, so some collide as on a real chain.
 */
import { type Hex, lowerAddress, lowerHex, USDC_ADDRESS, ZERO_ADDRESS } from "../../../schema/Chain.js"
import type { RawLog } from "../../../src/indexer/Decode.js"
import { topics } from "../../../src/indexer/Events.js"
import type { TokenMetadata } from "../../../src/indexer/Metadata.js"
import type { Sources } from "../../../src/indexer/Sources.js"

export const FACTORY = lowerAddress("0x00000000000000000000000000000000fac70000")

export const sources: Sources = {
  v2Factories: new Map([[FACTORY, "uniswap-v2"]]),
  v3Factories: new Map(),
  v4Managers: new Map(),
  forkV3Swaps: new Map(),
  v2Fees: new Map([["uniswap-v2", { _tag: "Fixed", feePips: 3000 }]]),
  launchpads: new Map(),
  usdc: USDC_ADDRESS
}

const word = (value: bigint) => value.toString(16).padStart(64, "0")
const topicOf = (address: Hex): `0x${string}` => `0x${address.slice(2).padStart(64, "0")}`
const addressOf = (kind: number, n: number): Hex =>
  lowerHex(`0x${kind.toString(16).padStart(8, "0")}${n.toString(16).padStart(32, "0")}`)

/** Deterministic pseudo-random numbers (a fixed seed gives the same market every run). */
export const random = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
  return seed / 2 ** 31
}

const syllables = [
  "ka",
  "lo",
  "mi",
  "nu",
  "ra",
  "ze",
  "to",
  "pi",
  "qua",
  "sol",
  "vex",
  "dor",
  "lun",
  "bit",
  "coin",
  "fi",
  "meta",
  "moon",
  "dog",
  "cat"
]

export interface SyntheticToken {
  readonly address: Hex
  readonly symbol: string
  readonly name: string
}

export interface SyntheticMarket {
  readonly logs: ReadonlyArray<RawLog>
  readonly tokens: ReadonlyArray<SyntheticToken>
  readonly metadata: ReadonlyMap<Hex, TokenMetadata>
  readonly lastBlock: number
  readonly blockTime: (block: number) => number
}

export const syntheticMarket = (
  options: { readonly pools: number; readonly swapsPerPool: number; readonly poolsPerBlock: number }
): SyntheticMarket => {
  const next = random(42)
  const letters = (n: number) =>
    Array.from({ length: n }, () => String.fromCharCode(65 + Math.floor(next() * 26))).join("")
  const name = () =>
    Array.from({ length: 2 }, () => {
      const w = syllables[Math.floor(next() * syllables.length)]! + syllables[Math.floor(next() * syllables.length)]!
      return w[0]!.toUpperCase() + w.slice(1)
    }).join(" ")
  const start = 1_750_000_000
  const blockTime = (block: number) => start + block
  const logs: Array<RawLog> = []
  const tokens: Array<SyntheticToken> = []
  const metadata = new Map<Hex, TokenMetadata>([[USDC_ADDRESS, {
    symbol: "USDC",
    name: "USDC",
    decimals: 6,
    ok: true
  }]])
  const creator = addressOf(0xc0, 1)
  const hub = addressOf(0xb0, 0)
  metadata.set(hub, { symbol: "WHUB", name: "Wrapped Hub", decimals: 18, ok: true })
  let block = 1
  let logIndex = 0
  const push = (address: Hex, logTopics: ReadonlyArray<`0x${string}`>, data: string, tx: number) =>
    logs.push({
      address,
      topics: logTopics,
      data: `0x${data}`,
      blockNumber: `0x${block.toString(16)}`,
      blockHash: `0x${word(BigInt(block))}`,
      blockTimestamp: `0x${blockTime(block).toString(16)}`,
      transactionHash: `0x${word(BigInt(tx))}`,
      logIndex: `0x${(logIndex++).toString(16)}`
    })
  const transfer = (token: Hex, from: Hex, to: Hex, value: bigint, tx: number) =>
    push(token, [topics.Transfer, topicOf(from), topicOf(to)], word(value), tx)
  let tx = 0
  // The hub: deep against USDC, so that tokens paired with it get a price through it.
  const hubPair = addressOf(0xd1, 0)
  transfer(hub, ZERO_ADDRESS, creator, 10n ** 30n, ++tx)
  push(FACTORY, [topics.PairCreated, topicOf(hub), topicOf(USDC_ADDRESS)], word(BigInt(hubPair)) + word(0n), ++tx)
  push(hubPair, [topics.Sync], word(5_000n * 10n ** 18n) + word(10_000_000n * 10n ** 6n), tx)
  for (let i = 0; i < options.pools; i++) {
    if (i > 0 && i % options.poolsPerBlock === 0) {
      block++
      logIndex = 0
    }
    const token = addressOf(0xa0, i)
    const quote = i % 10 === 9 ? hub : USDC_ADDRESS
    const pair = addressOf(0xd0, i)
    const symbol = letters(3 + Math.floor(next() * 3))
    const tokenName = name()
    tokens.push({ address: token, symbol, name: tokenName })
    metadata.set(token, { symbol, name: tokenName, decimals: 18, ok: true })
    const [token0, token1] = quote < token ? [quote, token] : [token, quote]
    const reserveQuote = BigInt(1_000 + Math.floor(next() * 1_000_000)) * 10n ** 6n
    const reserveToken = BigInt(1 + Math.floor(next() * 1_000_000)) * 10n ** 18n
    transfer(token, ZERO_ADDRESS, creator, 10n ** 27n, ++tx)
    push(
      FACTORY,
      [topics.PairCreated, topicOf(token0), topicOf(token1)],
      word(BigInt(pair)) + word(BigInt(i + 1)),
      ++tx
    )
    transfer(token, creator, pair, reserveToken, ++tx)
    transfer(quote, creator, pair, reserveQuote, tx)
    transfer(pair, ZERO_ADDRESS, creator, 10n ** 18n, tx)
    let [r0, r1] = quote === token0 ? [reserveQuote, reserveToken] : [reserveToken, reserveQuote]
    push(pair, [topics.Sync], word(r0) + word(r1), tx)
    for (let s = 0; s < options.swapsPerPool; s++) {
      const trader = addressOf(0xe0, Math.floor(next() * 5_000))
      const amountIn = r0 / 1_000n
      const amountOut = (amountIn * 997n * r1) / (r0 * 1_000n + amountIn * 997n)
      ++tx
      transfer(token0, trader, pair, amountIn, tx)
      transfer(token1, pair, trader, amountOut, tx)
      r0 += amountIn
      r1 -= amountOut
      push(pair, [topics.Sync], word(r0) + word(r1), tx)
      push(
        pair,
        [topics.V2Swap, topicOf(trader), topicOf(trader)],
        word(amountIn) + word(0n) + word(0n) + word(amountOut),
        tx
      )
    }
  }
  return { logs, tokens, metadata, lastBlock: block, blockTime }
}
