/**
 * The devnet's verification source: a Uniswap token list (tokenlists.org schema) of the verified
 * tokens only. Impostors and unknowns are deliberately absent.
 */
import { getAddress } from "viem"
import type { TokenList } from "../schema/Manifest.js"
import type { SeededToken } from "./market/context.js"

export const buildTokenList = (
  chainId: number,
  tokens: ReadonlyArray<SeededToken>,
  timestamp: Date
): TokenList => ({
  name: "Arc Devnet Verified",
  timestamp: timestamp.toISOString(),
  version: { major: 1, minor: 0, patch: 0 },
  tokens: tokens.flatMap(({ address, spec }) =>
    spec.verified === undefined ? [] : [{
      chainId,
      address: getAddress(address),
      name: spec.name,
      symbol: spec.symbol,
      decimals: spec.decimals,
      tags: [...spec.verified.tags],
      extensions: { coinId: spec.verified.coinId }
    }]
  )
})
