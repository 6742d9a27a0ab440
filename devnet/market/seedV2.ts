/**
 * A Uniswap v2 pair seeded the way the protocol expects without a router: the factory creates the
 * pair, the reserves are transferred in, and `mint` issues the LP shares.
 */
import { Effect } from "effect"
import { type Address, parseAbi } from "viem"
import { loadArtifact } from "../Artifacts.js"
import { createPairWithFee, PAIR_FEE_V2 } from "../pairFeeVenue.js"
import { type Market, sortPair, token, transfer, usdWorth } from "./context.js"
import type { PoolSpec } from "./data/pools.js"
import { registerPool } from "./registerPool.js"

type V2Spec = Extract<PoolSpec, { readonly venue: "v2" }>

export const pairAbi = parseAbi([
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)",
  "function token0() view returns (address)",
  "function mint(address to) returns (uint256 liquidity)",
  "function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes data)"
])

/** The venue a v2 pool spec names, as the manifest's labels and fees (pips) show it. */
const targetOf = (market: Market, spec: V2Spec) =>
  spec.pairFeeBps !== undefined
    ? { factory: market.protocol.pairFeeV2Factory, prefix: PAIR_FEE_V2.id, fee: spec.pairFeeBps * 100 }
    : spec.fork === true
    ? { factory: market.protocol.lowFeeV2Factory, prefix: "lowfee-v2", fee: 2000 }
    : { factory: market.protocol.v2Factory, ...UNISWAP_V2 }

/** On Uniswap v2, the 0.2 % fork (`lowfee-v2`) or the v2.5 fork (`pairfee-v2`, at the spec's pair fee). */
export const seedV2 = Effect.fn("seedV2")(function*(market: Market, spec: V2Spec) {
  const { pair, usd } = spec
  const target = targetOf(market, spec)
  const factory = { address: target.factory, abi: loadArtifact("UniswapV2Factory").abi }
  const [a, b] = pair.map((label) => token(market, label)) as [ReturnType<typeof token>, ReturnType<typeof token>]
  if (spec.pairFeeBps === undefined) {
    yield* market.tx.write(market.deployer, factory, "createPair", [a.address, b.address])
  } else {
    yield* createPairWithFee(market.tx, market.deployer, target.factory, [a.address, b.address], spec.pairFeeBps)
  }
  const address = yield* market.tx.read<Address>(factory, "getPair", [a.address, b.address])
  yield* registerPool(market, [a, b], address)
  yield* transfer(market, market.deployer, a.address, address, usdWorth(market, pair[0], usd / 2))
  yield* transfer(market, market.deployer, b.address, address, usdWorth(market, pair[1], usd / 2))
  yield* market.tx.write(market.deployer, { address, abi: pairAbi }, "mint", [market.deployer])
  listV2Pool(market, pair, [a.address, b.address], address, usd, target)
})

const UNISWAP_V2 = { prefix: "v2", fee: 3000 } as const

/** Records a v2 pair in the manifest's pool list (also used for pairs the launchpad graduates into). */
export const listV2Pool = (
  market: Market,
  pair: readonly [string, string],
  tokens: readonly [Address, Address],
  address: Address,
  usd: number,
  venue: { readonly prefix: string; readonly fee: number } = UNISWAP_V2
) => {
  const [token0, token1] = sortPair(tokens[0], tokens[1])
  market.pools.push({
    label: `${venue.prefix}:${pair[0]}/${pair[1]}`,
    pair,
    usd,
    venue: "v2",
    address,
    id: address,
    token0,
    token1,
    fee: venue.fee,
    tickSpacing: null,
    hooks: null,
    key: null
  })
}
