/**
 * Metadata of the many tokens a catch-up meets, read in few calls: each chunk of tokens is one
 * `eth_call` to Multicall3 (at its canonical address, on Arc as on the devnet) whose `aggregate3` makes
 * every token's `symbol`, `name` and `decimals` calls, each allowed to fail. Three calls, an effect and
 * a span per token cost the catch-up more than the node's work did.
 *
 * A token any of whose calls failed inside the aggregate is read again on its own (./Metadata.ts): a call
 * that fails in the aggregate may have failed only for the gas a neighbour burned, and the lone read
 * tells a contract's failure from a transport's exactly as before. A chunk the aggregate cannot answer
 * (no Multicall3 at that address, an answer too large, a call out of gas as a whole) is read token by
 * token the same way.
 */
import { type Context, Effect } from "effect"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { type Hex, lowerHex } from "../../schema/Chain.js"
import { decodeAggregate3, encodeAggregate3 } from "./Aggregate3.js"
import { isTooMuch } from "./ChainSource.js"
import { call, metadataOf, readMetadata, selectors, type TokenMetadata } from "./Metadata.js"

const MULTICALL3 = lowerHex("0xcA11bde05977b3631167028862bE2a173976CA11")
/** Tokens per aggregate: three calls each, an answer of some 100 KB. */
const CHUNK = 100
const CHUNKS_AT_ONCE = 8
const PER_TOKEN = [selectors.symbol, selectors.name, selectors.decimals] as const

type Read = readonly [Hex, TokenMetadata]
type Rpc = Context.Tag.Service<typeof ChainRpc>

/** The aggregate's results, three per token, or undefined when it gave none that can be read. */
const aggregate = (rpc: Rpc, tokens: ReadonlyArray<Hex>) => {
  const calls = tokens.flatMap((target) => PER_TOKEN.map((selector) => ({ target, selector })))
  return call(rpc, MULTICALL3, encodeAggregate3(calls)).pipe(
    Effect.map((answer) => {
      const results = answer === undefined ? undefined : decodeAggregate3(answer)
      return results?.length === calls.length ? results : undefined
    }),
    Effect.catchIf(isTooMuch, () => Effect.succeed(undefined))
  )
}

const readChunk = (rpc: Rpc, tokens: ReadonlyArray<Hex>) =>
  Effect.gen(function*() {
    const results = yield* aggregate(rpc, tokens)
    const read: Array<Read> = []
    const alone: Array<Hex> = []
    tokens.forEach((token, i) => {
      const answers = results?.slice(3 * i, 3 * i + 3)
      if (answers === undefined || answers.some((answer) => !answer.success)) alone.push(token)
      else read.push([token, metadataOf(answers[0]!.returnData, answers[1]!.returnData, answers[2]!.returnData)])
    })
    const again = yield* Effect.forEach(alone, (token) => Effect.map(readMetadata(token), (m): Read => [token, m]), {
      concurrency: 16
    })
    return read.concat(again)
  })

/** Metadata of `tokens`, by token. */
export const readMetadataOf = Effect.fn("Indexer.readMetadataOf")(function*(tokens: ReadonlyArray<Hex>) {
  const rpc = yield* ChainRpc
  const chunks: Array<ReadonlyArray<Hex>> = []
  for (let i = 0; i < tokens.length; i += CHUNK) chunks.push(tokens.slice(i, i + CHUNK))
  const read = yield* Effect.forEach(chunks, (chunk) => readChunk(rpc, chunk), { concurrency: CHUNKS_AT_ONCE })
  return new Map<Hex, TokenMetadata>(read.flat())
})
