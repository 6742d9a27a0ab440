/** The index's sources of a market with one Uniswap v2 factory and nothing else: what the synthetic-market tests feed the apply. */
import { type Hex, lowerAddress } from "../../schema/Chain.js"
import type { ApplyContext } from "../../src/indexer/Draft.js"
import type { TokenMetadata } from "../../src/indexer/Metadata.js"
import type { Sources } from "../../src/indexer/Sources.js"

export const v2Factory = lowerAddress("0x00000000000000000000000000000000000000f1")

export const v2Sources = (usdc: Hex): Sources => ({
  v2Factories: new Map([[v2Factory, "uniswap-v2"]]),
  v3Factories: new Map(),
  v4Managers: new Map(),
  forkV3Swaps: new Map(),
  v2Fees: new Map([["uniswap-v2", { _tag: "Fixed", feePips: 3000 }]]),
  launchpads: new Map(),
  usdc
})

/** What the apply needs for such a market: its sources and the tokens' metadata, nothing read from a chain. */
export const v2ApplyContext = (usdc: Hex, metadata: ReadonlyMap<Hex, TokenMetadata> = new Map()): ApplyContext => ({
  sources: v2Sources(usdc),
  metadata,
  senders: new Map(),
  pairFees: new Map(),
  tradesSince: 0
})
