/**
 * The real entry point (`src/main.ts`) as its own process, as a user or a supervisor runs it, with
 * `env` over this one's: its log as written, its exit, and its base URL once it says it listens.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { resolve } from "node:path"
import { untilAsync } from "./until.js"

export interface ServiceProcess {
  readonly child: ChildProcess
  readonly log: () => string
  readonly exited: Promise<number | null>
  readonly baseUrl: string
}

export const startServiceProcess = async (
  env: Readonly<Record<string, string>>,
  started: (child: ChildProcess) => void
): Promise<ServiceProcess> => {
  const child = spawn(process.execPath, ["--import", "tsx", resolve(import.meta.dirname, "../../src/main.ts")], {
    // Config.port refuses 0: a port unlikely to be taken.
    env: { ...process.env, PORT: String(20_000 + Math.floor(Math.random() * 10_000)), ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  started(child)
  let log = ""
  child.stdout.on("data", (chunk) => (log += chunk))
  child.stderr.on("data", (chunk) => (log += chunk))
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)))
  const baseUrl = await Promise.race([
    untilAsync("the service to listen", async () => /Listening on (http:\/\/\S+)/.exec(log)?.[1], { attempts: 600 }),
    exited.then((code) => Promise.reject(new Error(`service exited (${code}) before listening:\n${log}`)))
  ])
  return { child, log: () => log, exited, baseUrl }
}
