/**
 * Test fixture: the service's unhandled-rejection guard around a promise that rejects with no handler,
 * as a library's abandoned work does; prints once the process has lived past it, then ends.
 */
import { Effect } from "effect"
import { logUnhandledRejections } from "../../layers/UnhandledRejections.js"

const program = Effect.gen(function*() {
  yield* Effect.sync(() => void Promise.reject(new Error("abandoned by a library")))
  yield* Effect.sleep("300 millis")
  process.stdout.write("still serving\n")
})

Effect.runFork(program.pipe(Effect.provide(logUnhandledRejections)))
