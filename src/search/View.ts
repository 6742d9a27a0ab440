/**
 * Everything a search reads, for one snapshot: the catalog and the valuation of that snapshot, over a
 * basis that stays from view to view (the verification book, the verified tokens' keys, USDC and a memo
 * of checksummed addresses). Built once per snapshot (by the warm-up fiber, normally) and shared by all
 * queries against that snapshot.
 */
import type { Hex } from "../../schema/Chain.js"
import { type Address, checksummed } from "../../schema/Primitives.js"
import type { IndexSnapshot } from "../indexer/ChainIndex.js"
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

/** The part of a view that does not change with the snapshot. */
export interface ViewBasis {
  readonly book: VerificationBook
  readonly canon: Canon
  readonly usdc: Hex
  /** EIP-55 form of an indexed address; checksumming hashes, and the index's addresses are few enough to remember. */
  readonly checksum: (address: Hex) => Address
}

export interface SearchView extends ViewBasis {
  readonly snapshot: IndexSnapshot
  readonly catalog: Catalog
  readonly valuation: Valuation
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

export const viewBasis = (book: VerificationBook, usdc: Hex): ViewBasis => {
  const checksums = new Map<Hex, Address>()
  return {
    book,
    canon: canonOf(book),
    usdc,
    checksum: (address) => {
      let found = checksums.get(address)
      if (found === undefined) {
        found = checksummed(address)
        checksums.set(address, found)
      }
      return found
    }
  }
}

export const makeView = (snapshot: IndexSnapshot, basis: ViewBasis, previous: SearchView | undefined): SearchView => ({
  ...basis,
  snapshot,
  catalog: catalogFor(snapshot, basis.book, previous?.catalog),
  valuation: valuationOf(snapshot.state, basis.usdc, new Set(basis.book.listed.keys()))
})
