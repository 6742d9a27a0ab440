/**
 * The working copy `applyEvents` changes in place: the state's collections under mutation
 * (`HashMap.beginMutation`) and arrays copied on their first change, so that a 2,000-block batch does
 * not allocate a state per log, while every state handed out before stays untouched. `finish` seals it.
 */
import { HashMap, Option } from "effect"
import { type Hex, NATIVE_PER_USDC_UNIT } from "../../schema/Chain.js"
import type { Pool } from "../math/PoolState.js"
import { appendOwned, type Chunks, ownedChunks } from "./Chunks.js"
import type { ChainEvent, LogPosition } from "./Events.js"
import { applyTransfer, type DraftHoldings, draftHoldings } from "./Holdings.js"
import type { TokenMetadata } from "./Metadata.js"
import { isUsdc, NATIVE, type Sources } from "./Sources.js"
import type { BlockRef, Holdings, IndexState, PoolRef, TokenFacts, Trade } from "./State.js"
import { DAY_SEC } from "./State.js"
import { logStep } from "./Touched.js"

export interface ApplyContext {
  readonly sources: Sources
  /** Metadata of the tokens these events introduce, read before applying them. */
  readonly metadata: ReadonlyMap<Hex, TokenMetadata>
  /** Fee in pips of each new pair of a per-pair v2 venue, read before applying (./PairFees.ts). */
  readonly pairFees: ReadonlyMap<Hex, number>
  /** Sender of each transaction whose trades or first mint the index records. */
  readonly senders: ReadonlyMap<Hex, Hex>
  /** Trades before this time fall outside every 24 h window still to come and are not kept. */
  readonly tradesSince: number
}

export interface Launch {
  readonly launchpad: string
  readonly creator: Hex
  readonly symbol: string
  readonly name: string
}

const unknownMetadata: TokenMetadata = { symbol: "", name: "", decimals: 18, ok: false }

/** USD micro-units of an amount of USDC in either form (ERC-20 6 decimals, native 18). */
const usdcMicro = (token: Hex, amount: bigint): bigint => (token === NATIVE ? amount / NATIVE_PER_USDC_UNIT : amount)

export class Draft {
  pools: HashMap.HashMap<Hex, Pool>
  tokens: HashMap.HashMap<Hex, TokenFacts>
  holdings: HashMap.HashMap<Hex, Holdings>
  trades: HashMap.HashMap<Hex, Chunks<Trade>>
  nextSeq: number
  // Holdings records made by this draft, changed in place by each transfer until `finish` seals them.
  private readonly ownHoldings = new Map<Hex, DraftHoldings>()
  private readonly ownTrades = new Map<Hex, Array<ReadonlyArray<Trade>>>()
  private readonly ownPools = new Map<Hex, Array<PoolRef>>()
  // Pools added or given a new record by this draft: the step `finish` logs.
  private readonly touched = new Set<Hex>()

  constructor(private readonly state: IndexState, private readonly context: ApplyContext) {
    this.pools = HashMap.beginMutation(state.pools)
    this.tokens = HashMap.beginMutation(state.tokens)
    this.holdings = HashMap.beginMutation(state.holdings)
    this.trades = HashMap.beginMutation(state.trades)
    this.nextSeq = state.nextSeq
  }

  pool(id: Hex): Pool | undefined {
    return Option.getOrUndefined(HashMap.get(this.pools, id))
  }

  token(address: Hex): TokenFacts | undefined {
    return Option.getOrUndefined(HashMap.get(this.tokens, address))
  }

  /** Makes `address` a token of the index (idempotent); native USDC is an asset, not a token. */
  learnToken(address: Hex, at: LogPosition, launch?: Launch): void {
    if (address === NATIVE) return
    const known = this.token(address)
    if (known !== undefined) {
      if (launch !== undefined) {
        this.tokens = HashMap.set(this.tokens, address, {
          ...known,
          launchpad: launch.launchpad,
          creator: launch.creator,
          curve: known.curve ?? { usdcIn: 0n, tokensOut: 0n }
        })
      }
      return
    }
    const holdings = Option.getOrUndefined(HashMap.get(this.holdings, address))
    // A launch names its token in the event; without a successful read the decimals stay unknown.
    const metadata = this.context.metadata.get(address) ??
      (launch === undefined ? unknownMetadata : { ...unknownMetadata, symbol: launch.symbol, name: launch.name })
    const mintSender = holdings?.firstMintTx === null || holdings === undefined
      ? null
      : this.context.senders.get(holdings.firstMintTx) ?? null
    this.tokens = HashMap.set(this.tokens, address, {
      address,
      symbol: metadata.symbol,
      name: metadata.name,
      decimals: metadata.decimals,
      metadataOk: metadata.ok,
      seq: this.nextSeq++,
      createdBlock: holdings?.firstBlock ?? at.block,
      createdTime: holdings?.firstTime ?? at.time,
      createdLog: holdings?.firstLog ?? at.logIndex,
      creator: launch?.creator ?? mintSender,
      launchpad: launch?.launchpad ?? null,
      graduated: false,
      curve: launch === undefined ? null : { usdcIn: 0n, tokensOut: 0n },
      pools: []
    })
  }

  addPool(pool: Pool): void {
    if (this.pool(pool.id) !== undefined) return
    this.pools = HashMap.set(this.pools, pool.id, pool)
    this.touched.add(pool.id)
    for (const address of [pool.token0, pool.token1]) {
      const token = this.token(address)
      if (token === undefined) continue
      let owned = this.ownPools.get(address)
      if (owned === undefined) {
        owned = [...token.pools]
        this.ownPools.set(address, owned)
        this.tokens = HashMap.set(this.tokens, address, { ...token, pools: owned })
      }
      owned.push({ id: pool.id, other: address === pool.token0 ? pool.token1 : pool.token0 })
    }
  }

  graduate(address: Hex): void {
    const token = this.token(address)
    if (token !== undefined) this.tokens = HashMap.set(this.tokens, address, { ...token, graduated: true })
  }

  /** A curve trade moves the launched token's net flows; a graduated curve no longer trades. */
  curveTrade(address: Hex, isBuy: boolean, usdcAmount: bigint, tokenAmount: bigint): void {
    const token = this.token(address)
    if (token?.curve == null || token.graduated) return
    const { usdcIn, tokensOut } = token.curve
    const curve = isBuy
      ? { usdcIn: usdcIn + usdcAmount, tokensOut: tokensOut + tokenAmount }
      : { usdcIn: usdcIn - usdcAmount, tokensOut: tokensOut - tokenAmount }
    this.tokens = HashMap.set(this.tokens, address, { ...token, curve })
  }

  setPool(pool: Pool): void {
    this.pools = HashMap.set(this.pools, pool.id, pool)
    this.touched.add(pool.id)
  }

  transfer(event: ChainEvent & { readonly _tag: "Transfer" }): void {
    let own = this.ownHoldings.get(event.emitter)
    if (own === undefined) {
      own = draftHoldings(Option.getOrUndefined(HashMap.get(this.holdings, event.emitter)), event)
      this.ownHoldings.set(event.emitter, own)
      this.holdings = HashMap.set(this.holdings, event.emitter, own)
    }
    applyTransfer(own, event)
  }

  trade(token: Hex, amount: bigint, usdMicro: bigint | null, trader: Hex, at: LogPosition): void {
    if (token === NATIVE || amount === 0n || at.time < this.context.tradesSince) return
    let owned = this.ownTrades.get(token)
    if (owned === undefined) {
      // Chunks whose newest trade is past the 24 h go; older trades in a kept chunk are skipped when read.
      const horizon = at.time - DAY_SEC
      const chunks = Option.getOrElse(HashMap.get(this.trades, token), (): Chunks<Trade> => [])
      const kept = chunks.findIndex((chunk) => chunk.at(-1)!.time >= horizon)
      owned = ownedChunks(chunks, kept === -1 ? chunks.length : kept)
      this.ownTrades.set(token, owned)
      this.trades = HashMap.set(this.trades, token, owned)
    }
    appendOwned(owned, { time: at.time, amount, usdMicro, trader })
  }

  /** A swap of a pool: one trade per side, valued in USD directly when the other side is USDC. */
  swap(pool: Pool, amount0: bigint, amount1: bigint, trader: Hex, at: LogPosition): void {
    const usd = isUsdc(this.context.sources, pool.token0)
      ? usdcMicro(pool.token0, amount0)
      : isUsdc(this.context.sources, pool.token1)
      ? usdcMicro(pool.token1, amount1)
      : null
    this.trade(pool.token0, amount0, usd, trader, at)
    this.trade(pool.token1, amount1, usd, trader, at)
  }

  finish(end: BlockRef): IndexState {
    for (const own of this.ownHoldings.values()) own.balances = HashMap.endMutation(own.balances)
    return {
      block: end.number,
      hash: end.hash,
      time: end.time,
      pools: HashMap.endMutation(this.pools),
      tokens: HashMap.endMutation(this.tokens),
      holdings: HashMap.endMutation(this.holdings),
      trades: HashMap.endMutation(this.trades),
      nextSeq: this.nextSeq,
      touched: logStep(this.state.touched, { block: end.number, pools: [...this.touched] })
    }
  }
}
