/**
 * Token metadata read from the token contract: `symbol`, `name`, `decimals`. Real tokens return these
 * as ABI strings, as bytes32 (MKR-style), or revert; a token that reverts or returns garbage is still
 * indexed, with `ok: false`, and never stops the indexer. Transport failures are not garbage: they fail
 * the read, and the step that needed it is retried.
 */
import { type Context, Effect } from "effect"
import { BaseError, decodeAbiParameters, hexToString, RpcRequestError } from "viem"
import { ChainRpc } from "../../layers/ChainRpc.js"
import type { Hex } from "../../schema/Chain.js"
import type { RpcUnavailable } from "../../schema/Errors.js"

export interface TokenMetadata {
  readonly symbol: string
  readonly name: string
  readonly decimals: number
  /** False when the token's symbol, name or decimals call failed or returned garbage. */
  readonly ok: boolean
}

export const selectors = { symbol: "0x95d89b41", name: "0x06fdde03", decimals: "0x313ce567" } as const

/**
 * The node answered that the call itself failed (EIP-1474 code 3 "execution reverted", or a -32000
 * naming an EVM failure), as opposed to the node or the network failing, or refusing to serve us.
 */
const contractFailed = (error: unknown): boolean =>
  error instanceof BaseError &&
  error.walk((cause) =>
      cause instanceof RpcRequestError &&
      (cause.code === 3 || (cause.code === -32000 && /revert|invalid opcode|out of gas|stack/i.test(cause.details)))
    ) !== null

/** The call's return data, or `undefined` when the contract failed it. */
export const call = (
  rpc: Context.Tag.Service<typeof ChainRpc>,
  to: Hex,
  data: `0x${string}`
): Effect.Effect<`0x${string}` | undefined, RpcUnavailable> =>
  rpc.use(
    "eth_call",
    (client) =>
      client.request({
        method: "eth_call",
        params: [{ to, data }, "latest"]
      })
        .then(
          (result): `0x${string}` | undefined => result,
          (error) => (contractFailed(error) ? undefined : Promise.reject(error))
        )
  )

const printable = (text: string): string | undefined => {
  // Control characters inside mean the bytes were never meant as text.
  const cleaned = text.replace(/\0+$/, "").trim()
  return cleaned.length > 0 && cleaned.length <= 128 && !/[\u0000-\u001f\u007f]/.test(cleaned) ? cleaned : undefined
}

export const decodeText = (data: `0x${string}` | undefined): string | undefined => {
  if (data === undefined || data === "0x") return undefined
  if (data.length === 66) {
    // bytes32 text, zero-padded on the right
    try {
      return printable(hexToString(data))
    } catch {
      return undefined
    }
  }
  try {
    const [text] = decodeAbiParameters([{ type: "string" }], data)
    return printable(text)
  } catch {
    return undefined
  }
}

export const decodeDecimals = (data: string | undefined): number | undefined => {
  if (data === undefined || data.length !== 66) return undefined
  const value = BigInt(data)
  return value <= 255n ? Number(value) : undefined
}

/** Metadata from the answers of a token's `symbol`, `name` and `decimals` calls (`undefined`: the call failed). */
export const metadataOf = (
  symbolData: `0x${string}` | undefined,
  nameData: `0x${string}` | undefined,
  decimalsData: `0x${string}` | undefined
): TokenMetadata => {
  const symbol = decodeText(symbolData)
  const name = decodeText(nameData)
  const decimals = decodeDecimals(decimalsData)
  return {
    symbol: symbol ?? "",
    name: name ?? symbol ?? "",
    decimals: decimals ?? 18,
    ok: symbol !== undefined && decimals !== undefined
  }
}

export const readMetadata = Effect.fn("Indexer.readMetadata")(function*(token: Hex) {
  const rpc = yield* ChainRpc
  const [symbol, name, decimals] = yield* Effect.all([
    call(rpc, token, selectors.symbol),
    call(rpc, token, selectors.name),
    call(rpc, token, selectors.decimals)
  ], { concurrency: "unbounded" })
  return metadataOf(symbol, name, decimals)
})
