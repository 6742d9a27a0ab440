/**
 * The counting JSON-RPC proxy (test/support/rpcCounter.ts) in a process of its own, so a load generator
 * that keeps its parent's event loop busy does not slow the chain down for the service it measures.
 * Usage: forked with an IPC channel and the node's URL; it sends `{ url }`, then `{ calls }` for every
 * message it receives, and exits when its parent disconnects.
 */
import { startRpcCounter } from "../../../test/support/rpcCounter.js"

const counter = await startRpcCounter(process.argv[2]!)
process.send!({ url: counter.url })
process.on("message", () => process.send!({ calls: counter.calls() }))
process.on("disconnect", () => void counter.close().then(() => process.exit(0)))
