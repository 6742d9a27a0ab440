/** Index states compared by content: canonical JSON of the stored form, every collection sorted. */
import { fromParts, type StoredHeader, storedParts, type StoredSlice } from "../../src/indexer/Codec.js"
import type { IndexState } from "../../src/indexer/State.js"

const byKey = <T>(key: (item: T) => string) => (a: T, b: T) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)

/** The checkpoint's parts of `state` (./src/indexer/Codec.ts): its header and its slices. */
export const partsOf = (state: IndexState, budget?: number) => {
  const [header, ...slices] = [...storedParts(state, "", budget)]
  return { header: header as StoredHeader, slices: slices as ReadonlyArray<StoredSlice> }
}

/** `state` through its checkpoint form and back, as a restart loads it. */
export const reloaded = (state: IndexState): IndexState => {
  const { header, slices } = partsOf(state)
  return fromParts(header, slices)
}

type ItemOf<S extends StoredSlice["section"]> = Extract<StoredSlice, { section: S }>["items"][number]

const itemsOf = <S extends StoredSlice["section"]>(slices: ReadonlyArray<StoredSlice>, section: S) =>
  slices.flatMap((slice): ReadonlyArray<unknown> => (slice.section === section ? slice.items : [])) as Array<ItemOf<S>>

export const canonical = (state: IndexState): string => {
  const { header, slices } = partsOf(state)
  const sorted = {
    ...header,
    pools: itemsOf(slices, "pools").sort(byKey((pool) => pool.id)),
    tokens: itemsOf(slices, "tokens").sort(byKey((token) => token.address)),
    holdings: itemsOf(slices, "holdings").sort(byKey(([token]) => token)).map(([token, holdings]) => {
      const pairs = holdings.holdersOf.map((holder, i) => [holder, holdings.amounts[i]!] as const).sort(
        byKey(([h]) => h)
      )
      return [token, { ...holdings, holdersOf: pairs.map(([h]) => h), amounts: pairs.map(([, a]) => a) }] as const
    }),
    trades: itemsOf(slices, "trades").sort(byKey(([token]) => token))
  }
  return JSON.stringify(sorted, (_, value) => (typeof value === "bigint" ? value.toString() : value))
}
