/**
 * Anvil as a scoped child process: started with Arc's chain id, ready once it prints its listening
 * address (so port 0 works without a race), stopped when the scope closes. `exited` lets the service
 * notice an anvil that died under it instead of serving a dead chain.
 */
import { Deferred, Effect, Option } from "effect"
import { anvilBinary } from "./anvilBinary.js"
import { anvilCondition, type Drained } from "./anvilCondition.js"
import { freshStatesDir } from "./anvilStates.js"
import { spawnGuarded, stopGuarded } from "./childGuard.js"
import { DevnetError } from "./DevnetError.js"

export interface AnvilArgs {
  readonly host: string
  readonly port: number
  readonly chainId: number
  readonly hardfork: string
  readonly blockTime: Option.Option<number>
  /** A state file written from `anvil_dumpState` (the bootstrap cache). */
  readonly loadState: Option.Option<string>
  /** Unix seconds of the genesis block; the bootstrap backdates it to give the market a history. */
  readonly genesisTimestamp: Option.Option<number>
  /** How many past blocks' states anvil keeps (`--prune-history`); none: anvil's default (DevnetConfig.ts). */
  readonly keptStates: Option.Option<number>
}

export interface AnvilInstance {
  readonly rpcUrl: string
  readonly port: number
  /** The guard process; anvil runs in its process group. */
  readonly pid: number
  readonly version: string
  /** Completes with the exit code (or the signal's name) when anvil's process ends, for whatever reason. */
  readonly exited: Effect.Effect<number | string>
  /** One line on what the process is doing now, for a node that stopped answering (anvilCondition.ts). */
  readonly condition: Effect.Effect<string>
}

const READY_TIMEOUT_MS = 20_000
const LISTENING = /Listening on ([^\s]+):(\d+)/

const argv = (args: AnvilArgs, statesDir: string): Array<string> => [
  "--cache-path",
  statesDir,
  "--host",
  args.host,
  "--port",
  String(args.port),
  "--chain-id",
  String(args.chainId),
  "--hardfork",
  args.hardfork,
  // Seeded pools hold millions of USDC; the mnemonic accounts get a round native balance to trade with.
  "--balance",
  "1000000",
  ...Option.match(args.blockTime, { onNone: () => [], onSome: (seconds) => ["--block-time", String(seconds)] }),
  ...Option.match(args.loadState, { onNone: () => [], onSome: (file) => ["--load-state", file] }),
  ...Option.match(args.genesisTimestamp, { onNone: () => [], onSome: (seconds) => ["--timestamp", String(seconds)] }),
  ...Option.match(args.keptStates, { onNone: () => [], onSome: (blocks) => ["--prune-history", String(blocks)] })
]

export const startAnvil = Effect.fn("startAnvil")(function*(args: AnvilArgs) {
  const binary = yield* anvilBinary
  const child = yield* Effect.acquireRelease(
    Effect.sync(() => {
      const statesDir = freshStatesDir()
      return spawnGuarded(binary.path, argv(args, statesDir), statesDir)
    }),
    (child) => Effect.promise(() => stopGuarded(child))
  )
  const exited = yield* Deferred.make<number | string>()
  const drained: Drained = { bytes: 0, lastAt: Date.now() }
  const drain = (chunk: Buffer) => {
    drained.bytes += chunk.length
    drained.lastAt = Date.now()
  }
  child.once("exit", (code, signal) => Deferred.unsafeDone(exited, Effect.succeed(code ?? signal ?? "unknown")))
  const port = yield* Effect.async<number, DevnetError>((resume) => {
    let output = ""
    const onData = (chunk: Buffer) => {
      drain(chunk)
      output = (output + chunk.toString()).slice(-4_000)
      const match = LISTENING.exec(output)
      if (match !== null) finish(Effect.succeed(Number(match[2])))
    }
    const onExit = (code: number | null) =>
      finish(
        Effect.fail(
          new DevnetError({ message: `anvil exited (${code}) before listening: ${output.trim().slice(-600)}` })
        )
      )
    const timer = setTimeout(
      () => finish(Effect.fail(new DevnetError({ message: `anvil not listening after ${READY_TIMEOUT_MS} ms` }))),
      READY_TIMEOUT_MS
    )
    let cleaned = false
    const cleanup = () => {
      if (cleaned) return
      cleaned = true
      clearTimeout(timer)
      child.stdout?.off("data", onData)
      child.stderr?.off("data", onData)
      child.off("exit", onExit)
      // Keep draining: anvil logs each request and transaction, and once its stdout is full (about 90
      // transactions' worth) the logging thread blocks and every later request hangs, the process alive.
      child.stdout?.on("data", drain).resume()
      child.stderr?.on("data", drain).resume()
    }
    const finish = (result: Effect.Effect<number, DevnetError>) => {
      cleanup()
      resume(result)
    }
    child.stdout?.on("data", onData)
    child.stderr?.on("data", onData)
    child.once("exit", onExit)
    return Effect.sync(cleanup)
  })
  const host = args.host === "0.0.0.0" ? "127.0.0.1" : args.host
  return {
    rpcUrl: `http://${host}:${port}`,
    port,
    pid: child.pid ?? -1,
    version: binary.version,
    exited: Deferred.await(exited),
    condition: Effect.sync(() => anvilCondition(child, drained))
  } satisfies AnvilInstance
})
