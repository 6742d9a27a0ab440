/**
 * Everything a search reads, for one snapshot: the catalog, the valuation, the verification book and
 * the verified tokens' keys. Built once per snapshot (by the warm-up fiber, normally) and shared by all
 * queries against that snapshot, along with a memo of the tokens already assessed in it.
 */
import type { IndexSnapshot } from "../indexer/ChainIndex.js"
import type { Hex } from "../indexer/Events.js"
import { type Valuation, valuationOf } from "../pricing/Valuation.js"
import { type Catalog, catalogFor, normalize } from "./Catalog.js"
import type { VerificationBook } from "./Verification.js"

/** Normalized symbols and names of verified tokens: what an impersonator copies. */
export interface Canon {
  readonly symbols: ReadonlyMap<string, ReadonlySet<Hex>>
  readonly names: ReadonlyMap<string, ReadonlySet<Hex>>
  /** Every verified token with its search keys (symbol, name, name words). */
  readonly listed: ReadonlyArray<{ readonly address: Hex; readonly keys: ReadonlyArray<string> }>
}

export interface SearchView {
  readonly snapshot: IndexSnapshot
  readonly catalog: Catalog
  readonly valuation: Valuation
  readonly book: VerificationBook
  readonly canon: Canon
  readonly usdc: Hex
  /** Per-view memo for `assess`. */
  readonly assessed: Map<Hex, unknown>
}

export const canonOf = (book: VerificationBook): Canon => {
  const symbols = new Map<string, Set<Hex>>()
  const names = new Map<string, Set<Hex>>()
  const add = (map: Map<string, Set<Hex>>, key: string, address: Hex) => {
    if (key === "") return
    const set = map.get(key) ?? new Set<Hex>()
    set.add(address)
    map.set(key, set)
  }
  const listed: Array<{ readonly address: Hex; readonly keys: ReadonlyArray<string> }> = []
  for (const entry of book.listed.values()) {
    const symbol = normalize(entry.symbol)
    const name = normalize(entry.name)
    add(symbols, symbol, entry.address)
    add(names, name, entry.address)
    listed.push({ address: entry.address, keys: [symbol, name, ...name.split(/[\s\-_/.]+/)].filter((k) => k !== "") })
  }
  return { symbols, names, listed }
}

export const makeView = (
  snapshot: IndexSnapshot,
  book: VerificationBook,
  canon: Canon,
  usdc: Hex,
  previous: SearchView | undefined
): SearchView => ({
  snapshot,
  catalog: catalogFor(snapshot, book, previous?.catalog),
  valuation: valuationOf(snapshot.state, usdc, new Set(book.listed.keys())),
  book,
  canon,
  usdc,
  assessed: new Map()
})
