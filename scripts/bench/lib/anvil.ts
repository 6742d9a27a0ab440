/** A private anvil for a benchmark: its own child process, on a port the OS picks. */
import { spawn } from "node:child_process"
import { createInterface } from "node:readline"

export interface Anvil {
  readonly url: string
  /** Stops anvil (SIGINT, its clean shutdown) and resolves when it has exited. */
  readonly stop: () => Promise<void>
}

export const startAnvil = (args: ReadonlyArray<string>): Promise<Anvil> =>
  new Promise((resolve, reject) => {
    const child = spawn("node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil", [
      "--port",
      "0",
      "--chain-id",
      "5042",
      ...args
    ], {
      stdio: ["ignore", "pipe", "inherit"]
    })
    child.once("exit", (code) => reject(new Error(`anvil exited with ${code}`)))
    // A benchmark that dies must not leave its node behind.
    process.once("exit", () => child.kill())
    createInterface({ input: child.stdout }).on("line", (line) => {
      const match = /Listening on [\d.]+:(\d+)/.exec(line)
      if (match?.[1] === undefined) return
      resolve({
        url: `http://127.0.0.1:${match[1]}`,
        stop: () =>
          new Promise((done) => {
            child.once("exit", () => done())
            child.kill("SIGINT")
          })
      })
    })
  })
