/** A private anvil for a benchmark: its own guarded child process, on a port the OS picks. */
import { Effect } from "effect"
import { createInterface } from "node:readline"
import { anvilBinary } from "../../../devnet/anvilBinary.js"
import { freshStatesDir } from "../../../devnet/anvilStates.js"
import { spawnGuarded, stopGuarded } from "../../../devnet/childGuard.js"

export interface Anvil {
  readonly url: string
  /** Stops anvil and resolves when it has exited and its states directory is gone. */
  readonly stop: () => Promise<void>
}

export const startAnvil = (args: ReadonlyArray<string>): Promise<Anvil> =>
  new Promise((resolve, reject) => {
    const binary = Effect.runSync(anvilBinary)
    const statesDir = freshStatesDir()
    // The guard kills anvil and removes its states when this process dies, however it dies.
    const child = spawnGuarded(
      binary.path,
      ["--cache-path", statesDir, "--port", "0", "--chain-id", "5042", ...args],
      statesDir
    )
    child.stderr?.pipe(process.stderr)
    child.once("exit", (code) => reject(new Error(`anvil exited with ${code}`)))
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const match = /Listening on [\d.]+:(\d+)/.exec(line)
      if (match?.[1] === undefined) return
      resolve({ url: `http://127.0.0.1:${match[1]}`, stop: () => stopGuarded(child) })
    })
  })
