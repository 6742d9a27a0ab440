/**
 * Why a swap reverted, when that is cheap to know. A receipt carries no revert data, so: a transaction
 * that used all its gas ran out of it; otherwise it is replayed once (`eth_call`, same sender, calldata,
 * value and gas) on the state before its block, and the router's custom error names the reason. The
 * replay only runs on this failure path, and a replay that cannot tell gives no reason, never an error.
 */
import { Effect, Schema } from "effect"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { RpcHex } from "../../schema/Chain.js"
import { decodeRouterError } from "../execution/RouterPlan.js"
import type { Verdict } from "./Verdict.js"

/** `Unknown`: the call failed without revert data (a transport error, a node that hides it). */
type Replay =
  | { readonly _tag: "Succeeded" }
  | { readonly _tag: "Reverted"; readonly data: RpcHex }
  | { readonly _tag: "Unknown" }

/** The revert data somewhere in viem's error chain. */
const revertData = (error: unknown): RpcHex | undefined => {
  let current: unknown = error
  for (let depth = 0; depth < 8 && current !== null && typeof current === "object"; depth++) {
    const data = (current as { data?: unknown }).data
    if (Schema.is(RpcHex)(data)) return data
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

const describe = (data: RpcHex) => {
  if (data === "0x") return "without revert data"
  const decoded = decodeRouterError(data)
  if (decoded === undefined) return `with ${data.slice(0, 10)} (not a router error: a pool's or token's own)`
  return `with ${decoded.text}`
}

export const revertReason = Effect.fn("Receipt.revertReason")(function*(
  reverted: NonNullable<Verdict["reverted"]>
) {
  if (reverted.gasUsed >= BigInt(reverted.gas)) return `it ran out of gas (used all ${reverted.gasUsed})`
  const rpc = yield* ChainRpc
  const replay = yield* rpc.use("Receipt.replay", (client): Promise<Replay> =>
    client.call({
      account: reverted.from,
      to: reverted.to ?? undefined,
      data: reverted.input,
      value: BigInt(reverted.value),
      gas: BigInt(reverted.gas),
      blockNumber: BigInt(Math.max(reverted.block - 1, 0))
    }).then(
      (): Replay => ({ _tag: "Succeeded" }),
      (error: unknown): Replay => {
        const data = revertData(error)
        return data === undefined ? { _tag: "Unknown" } : { _tag: "Reverted", data }
      }
    )).pipe(Effect.option)
  if (replay._tag === "None" || replay.value._tag === "Unknown") return undefined
  return replay.value._tag === "Succeeded"
    ? "replayed on the state before its block it does not revert: a transaction earlier in the block, or the " +
      "block's time, made the difference"
    : `replayed on the state before its block it reverts ${describe(replay.value.data)}`
})
