/**
 * Verification comes from the configured token list only: listed (for this chain) is `verified`,
 * everything else `unverified`. Nothing on chain can make a token verified.
 *
 * `trust` ranks sources, lower is more trusted: a list entry's `extensions.trust` when it sets one,
 * else 1; 100 for tokens no source vouches for.
 */
import { Option } from "effect"
import { addressOption, type Hex } from "../../schema/Chain.js"
import type { TokenList } from "../../schema/Manifest.js"
import type { Verification } from "../../schema/Token.js"

export const LIST_TRUST = 1
export const UNVERIFIED_TRUST = 100

export interface Listed {
  readonly address: Hex
  readonly symbol: string
  readonly name: string
  readonly decimals: number
  readonly verification: Verification
}

export interface VerificationBook {
  readonly listed: ReadonlyMap<Hex, Listed>
  readonly unverified: Verification
}

const text = (value: unknown): string | null => (typeof value === "string" && value.length > 0 ? value : null)

export const bookOf = (list: TokenList, chainId: number, listUrl: string, checkedAt: string): VerificationBook => {
  const listed = new Map<Hex, Listed>()
  for (const entry of list.tokens) {
    const address = addressOption(entry.address)
    // An entry that names no address can match no token of the index.
    if (entry.chainId !== chainId || Option.isNone(address)) continue
    const extensions = entry.extensions ?? {}
    const trust = extensions["trust"]
    listed.set(address.value, {
      address: address.value,
      symbol: entry.symbol,
      name: entry.name,
      decimals: entry.decimals,
      verification: {
        status: "verified",
        source: list.name,
        trust: typeof trust === "number" ? trust : LIST_TRUST,
        sourceUrl: text(extensions["sourceUrl"]) ?? listUrl,
        note: text(extensions["note"]),
        coinId: text(extensions["coinId"]) ?? text(extensions["coingeckoId"]),
        checkedAt
      }
    })
  }
  return {
    listed,
    unverified: {
      status: "unverified",
      source: "index",
      trust: UNVERIFIED_TRUST,
      // the list it was checked against and is absent from
      sourceUrl: listUrl,
      note: null,
      coinId: null,
      checkedAt
    }
  }
}
