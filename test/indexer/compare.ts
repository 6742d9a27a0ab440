/** Index states compared by content: canonical JSON of the stored form, every collection sorted. */
import { toStored } from "../../src/indexer/Codec.js"
import type { IndexState } from "../../src/indexer/State.js"

const byKey = <T>(key: (item: T) => string) => (a: T, b: T) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)

export const canonical = (state: IndexState): string => {
  const stored = toStored(state, "")
  const sorted = {
    ...stored,
    pools: [...stored.pools].sort(byKey((pool) => pool.id)),
    tokens: [...stored.tokens].sort(byKey((token) => token.address)),
    holdings: [...stored.holdings].sort(byKey(([token]) => token)).map(([token, holdings]) => {
      const pairs = holdings.holdersOf.map((holder, i) => [holder, holdings.amounts[i]!] as const).sort(
        byKey(([h]) => h)
      )
      return [token, { ...holdings, holdersOf: pairs.map(([h]) => h), amounts: pairs.map(([, a]) => a) }] as const
    }),
    trades: [...stored.trades].sort(byKey(([token]) => token))
  }
  return JSON.stringify(sorted, (_, value) => (typeof value === "bigint" ? value.toString() : value))
}
