/**
 * The search catalog: every token the index knows (and every listed token it has not seen yet) by
 * address, by normalized symbol and name, and a sorted array of keys for prefix matching.
 *
 * It holds identities only: whatever changes block by block (pools, depth, volume) is read from the
 * snapshot at query time. New tokens go into a small `delta` part rebuilt when tokens arrive; at
 * 2,048 delta tokens, or after a rollback removed tokens, the whole catalog is rebuilt (sorting 50,000
 * tokens' keys takes tens of milliseconds, done off the request path by the warm-up fiber).
 */
import { HashMap } from "effect"
import type { Hex } from "../../schema/Chain.js"
import type { IndexSnapshot } from "../indexer/ChainIndex.js"
import type { VerificationBook } from "./Verification.js"

export interface CatalogToken {
  readonly address: Hex
  readonly symbolKey: string
  readonly nameKey: string
  /** Order learned by the index; -1 for a listed token not seen on chain. */
  readonly seq: number
}

interface Part {
  readonly byAddress: ReadonlyMap<Hex, CatalogToken>
  readonly bySymbol: ReadonlyMap<string, ReadonlyArray<CatalogToken>>
  readonly byName: ReadonlyMap<string, ReadonlyArray<CatalogToken>>
  /** Symbol keys, name keys and name-word keys, sorted; `keyTokens[i]` owns `keys[i]`. */
  readonly keys: ReadonlyArray<string>
  readonly keyTokens: ReadonlyArray<CatalogToken>
}

export interface Catalog {
  readonly epoch: number
  readonly nextSeq: number
  readonly base: Part
  readonly delta: Part
  readonly deltaTokens: ReadonlyArray<CatalogToken>
}

const MAX_DELTA = 2_048

/** Case, width and invisible characters do not make two tickers different. */
export const normalize = (text: string): string =>
  text.normalize("NFKC").toLowerCase().replace(/[\u200b-\u200d\u2060\ufeff]/g, "").replace(/\s+/g, " ").trim()

const push = <K, V>(map: Map<K, Array<V>>, key: K, value: V) => {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}

const partOf = (tokens: ReadonlyArray<CatalogToken>): Part => {
  const byAddress = new Map<Hex, CatalogToken>()
  const bySymbol = new Map<string, Array<CatalogToken>>()
  const byName = new Map<string, Array<CatalogToken>>()
  const entries: Array<readonly [string, CatalogToken]> = []
  for (const token of tokens) {
    byAddress.set(token.address, token)
    const keys = new Set<string>()
    if (token.symbolKey !== "") {
      push(bySymbol, token.symbolKey, token)
      keys.add(token.symbolKey)
    }
    if (token.nameKey !== "") {
      push(byName, token.nameKey, token)
      keys.add(token.nameKey)
      for (const word of token.nameKey.split(/[\s\-_/.]+/)) if (word.length >= 2) keys.add(word)
    }
    for (const key of keys) entries.push([key, token])
  }
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  return {
    byAddress,
    bySymbol,
    byName,
    keys: entries.map(([key]) => key),
    keyTokens: entries.map(([, token]) => token)
  }
}

const catalogTokens = (snapshot: IndexSnapshot, book: VerificationBook, minSeq: number): Array<CatalogToken> => {
  const found: Array<CatalogToken> = []
  for (const facts of HashMap.values(snapshot.state.tokens)) {
    if (facts.seq < minSeq) continue
    found.push({
      address: facts.address,
      symbolKey: normalize(facts.symbol),
      nameKey: normalize(facts.name),
      seq: facts.seq
    })
  }
  if (minSeq === 0) {
    for (const listed of book.listed.values()) {
      if (HashMap.has(snapshot.state.tokens, listed.address)) continue
      found.push({
        address: listed.address,
        symbolKey: normalize(listed.symbol),
        nameKey: normalize(listed.name),
        seq: -1
      })
    }
  }
  return found
}

const emptyPart = partOf([])

export const buildCatalog = (snapshot: IndexSnapshot, book: VerificationBook): Catalog => ({
  epoch: snapshot.epoch,
  nextSeq: snapshot.state.nextSeq,
  base: partOf(catalogTokens(snapshot, book, 0)),
  delta: emptyPart,
  deltaTokens: []
})

/** The catalog for `snapshot`, extending `previous` when the snapshot only added tokens to it. */
export const catalogFor = (snapshot: IndexSnapshot, book: VerificationBook, previous: Catalog | undefined): Catalog => {
  if (previous === undefined || previous.epoch !== snapshot.epoch || snapshot.state.nextSeq < previous.nextSeq) {
    return buildCatalog(snapshot, book)
  }
  if (snapshot.state.nextSeq === previous.nextSeq) return previous
  const deltaTokens = [...previous.deltaTokens, ...catalogTokens(snapshot, book, previous.nextSeq)]
  if (deltaTokens.length > MAX_DELTA) return buildCatalog(snapshot, book)
  return { ...previous, nextSeq: snapshot.state.nextSeq, delta: partOf(deltaTokens), deltaTokens }
}

/** A token by address; a token the chain has shown wins over its list-only entry. */
export const byAddress = (catalog: Catalog, address: Hex): CatalogToken | undefined =>
  catalog.delta.byAddress.get(address) ?? catalog.base.byAddress.get(address)

const merged = (
  catalog: Catalog,
  pick: (part: Part) => ReadonlyArray<CatalogToken> | undefined
): ReadonlyArray<CatalogToken> => {
  const fromDelta = pick(catalog.delta) ?? []
  const fromBase = pick(catalog.base) ?? []
  if (fromDelta.length === 0) return fromBase
  const seen = new Set(fromDelta.map((token) => token.address))
  return [...fromDelta, ...fromBase.filter((token) => !seen.has(token.address))]
}

export const symbolGroup = (catalog: Catalog, symbolKey: string) =>
  merged(catalog, (part) => part.bySymbol.get(symbolKey))

export const nameGroup = (catalog: Catalog, nameKey: string) => merged(catalog, (part) => part.byName.get(nameKey))

const lowerBound = (keys: ReadonlyArray<string>, key: string): number => {
  let low = 0
  let high = keys.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (keys[middle]! < key) low = middle + 1
    else high = middle
  }
  return low
}

/** Tokens with a key starting with `prefix`, at most `max` of them. */
export const withPrefix = (catalog: Catalog, prefix: string, max: number): ReadonlyArray<CatalogToken> => {
  const found = new Map<Hex, CatalogToken>()
  for (const part of [catalog.delta, catalog.base]) {
    for (let i = lowerBound(part.keys, prefix); i < part.keys.length && found.size < max; i++) {
      if (!part.keys[i]!.startsWith(prefix)) break
      const token = part.keyTokens[i]!
      if (!found.has(token.address)) found.set(token.address, token)
    }
  }
  return [...found.values()]
}
