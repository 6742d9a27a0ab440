/** A small synthetic market built through `applyEvents`, and a search view over it. */
import { type Address, type Hex, lowerAddress, lowerHex, USDC_ADDRESS } from "../../schema/Chain.js"
import type { TokenList } from "../../schema/Manifest.js"
import { applyEvents } from "../../src/indexer/Apply.js"
import type { IndexSnapshot } from "../../src/indexer/ChainIndex.js"
import type { ChainEvent } from "../../src/indexer/Events.js"
import type { TokenMetadata } from "../../src/indexer/Metadata.js"
import { emptyState, type IndexState } from "../../src/indexer/State.js"
import { bookOf } from "../../src/search/Verification.js"
import { makeView, type SearchView, viewBasis } from "../../src/search/View.js"
import { v2ApplyContext, v2Factory } from "../support/v2Sources.js"

export const usdc: Hex = USDC_ADDRESS

export interface Listing {
  readonly address: Hex
  readonly symbol: string
  readonly name: string
  /** USDC on each side of its pair with USDC; 0 for no pool. */
  readonly usdcDepth: bigint
  readonly verified?: boolean
}

export const address = (n: number): Address => lowerAddress(`0x${n.toString(16).padStart(40, "0")}`)

export const marketState = (listings: ReadonlyArray<Listing>): IndexState => {
  const metadata = new Map<Hex, TokenMetadata>([[usdc, { symbol: "USDC", name: "USDC", decimals: 6, ok: true }]])
  for (const l of listings) metadata.set(l.address, { symbol: l.symbol, name: l.name, decimals: 18, ok: true })
  const events: Array<ChainEvent> = []
  listings.forEach((l, i) => {
    if (l.usdcDepth === 0n) return
    const at = { block: 10 + i, time: 1_000_000 + i, tx: lowerHex(`0x${i}`), logIndex: 0 }
    const pair = address(0xa000 + i)
    events.push({ _tag: "V2PairCreated", at, emitter: v2Factory, token0: usdc, token1: l.address, pair })
    // price $1 per token: 1e6 USDC units against 1e18 token units
    events.push({
      _tag: "V2Sync",
      at,
      emitter: pair,
      reserve0: l.usdcDepth * 10n ** 6n,
      reserve1: l.usdcDepth * 10n ** 18n
    })
  })
  return applyEvents(
    emptyState(1),
    events,
    { number: 100, hash: lowerHex("0x100"), time: 1_000_100 },
    v2ApplyContext(usdc, metadata)
  )
}

export const tokenList = (listings: ReadonlyArray<Listing>): TokenList => ({
  name: "Test List",
  timestamp: "2026-01-01T00:00:00.000Z",
  version: { major: 1, minor: 0, patch: 0 },
  tokens: [
    { chainId: 5042, address: usdc, symbol: "USDC", name: "USDC", decimals: 6 },
    ...listings.filter((l) => l.verified === true).map((l) => ({
      chainId: 5042,
      address: l.address,
      symbol: l.symbol,
      name: l.name,
      decimals: 18
    }))
  ]
})

export const snapshotOf = (state: IndexState, epoch = 0): IndexSnapshot => ({
  state,
  head: state.block,
  headTime: state.time,
  catchingUp: false,
  epoch
})

export const viewOf = (listings: ReadonlyArray<Listing>): SearchView => {
  const book = bookOf(tokenList(listings), 5042, "https://example.test/list.json", "2026-01-01T00:00:00.000Z")
  return makeView(snapshotOf(marketState(listings)), viewBasis(book, usdc), undefined)
}
