/** A transaction sent to an automining anvil from its first dev account, and its receipt once stored. */
import { Effect, Schedule, Schema } from "effect"
import type { ChainRpc } from "../../layers/ChainRpc.js"

/** Anvil's first dev account, unlocked on every plain anvil. */
export const SENDER = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"

/** A contract whose every call stores its caller in slot 0: init code copying `CALLER PUSH1 0 SSTORE STOP`. */
export const STORES_CALLER = "0x6005600c60003960056000f3" + "3360005500"

const Receipt = Schema.Struct({ contractAddress: Schema.NullOr(Schema.String), blockNumber: Schema.String })

// Anvil's automine can answer the send before the block holding it is stored, so the receipt is
// awaited rather than read once.
const receiptOf = (rpc: ChainRpc["Type"], hash: unknown) =>
  rpc.read(Schema.NullOr(Receipt), "eth_getTransactionReceipt", [hash]).pipe(
    Effect.filterOrFail((receipt) => receipt !== null, () => new Error(`no receipt yet for ${String(hash)}`)),
    Effect.retry(Schedule.spaced("20 millis").pipe(Schedule.upTo("10 seconds")))
  )

export const automined = (rpc: ChainRpc["Type"], tx: Record<string, string>) =>
  Effect.flatMap(rpc.request("eth_sendTransaction", [{ from: SENDER, ...tx }]), (hash) => receiptOf(rpc, hash))
