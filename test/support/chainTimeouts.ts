/**
 * Vitest setup file: when a test fails because a chain request timed out, log what every running
 * private devnet's anvil is doing (devnet/anvilCondition.ts), so a node that hung once in a full run
 * names its cause (blocked on its output pipe, a lock, spinning, stopped, gone) in that run's log.
 */
import { afterEach } from "vitest"
import { runningDevnetConditions } from "./devnet.js"

const TIMED_OUT = /took too long to respond|timed out/i

afterEach(({ task }) => {
  const errors = task.result?.errors ?? []
  if (!errors.some((error) => TIMED_OUT.test(`${error.name ?? ""} ${error.message ?? ""}`))) return
  for (const line of runningDevnetConditions()) console.error(`[chain timeout] ${task.name}: ${line}`)
})
