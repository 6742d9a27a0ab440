/**
 * Keeps anvil from outliving the process that started it.
 *
 * Each anvil runs under a tiny `sh` guard whose reader blocks on its stdin, a pipe from us. When we
 * close the pipe, or when this process dies by any means (even SIGKILL, which runs no handler), the
 * read returns and the guard kills anvil. The guard leads its own process group, so a synchronous
 * `exit` hook can also kill the whole group if the scope never got to close.
 */
import { type ChildProcess, spawn } from "node:child_process"

const GUARD = [
  // Background jobs of a non-interactive shell read /dev/null, so the pipe is kept as fd 3 for the reader.
  "exec 3<&0",
  "\"$@\" &",
  "child=$!",
  "(read -r _ <&3; kill $child 2>/dev/null) &",
  "reader=$!",
  "trap 'kill $child 2>/dev/null' TERM INT HUP",
  // The guard ends with anvil, so an anvil that fails to start (port in use) is seen at once.
  "wait $child",
  "status=$?",
  "kill $reader 2>/dev/null",
  "exit $status"
].join("\n")

const live = new Set<ChildProcess>()
let hooked = false

const killGroup = (child: ChildProcess, signal: NodeJS.Signals) => {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  try {
    process.kill(process.platform === "win32" ? child.pid : -child.pid, signal)
  } catch {
    // already gone
  }
}

const hookExit = () => {
  if (hooked) return
  hooked = true
  process.once("exit", () => {
    for (const child of live) killGroup(child, "SIGKILL")
  })
}

/** Spawns `command args` under the guard; stdout and stderr are pipes the caller must drain. */
export const spawnGuarded = (command: string, args: ReadonlyArray<string>): ChildProcess => {
  hookExit()
  const child = process.platform === "win32"
    ? spawn(command, [...args], { stdio: ["pipe", "pipe", "pipe"] })
    : spawn("sh", ["-c", GUARD, "anvil-guard", command, ...args], {
      stdio: ["pipe", "pipe", "pipe"],
      detached: true
    })
  live.add(child)
  child.once("exit", () => live.delete(child))
  return child
}

/** Asks the guard to stop anvil, and kills the group outright if that takes longer than `graceMs`. */
export const stopGuarded = (child: ChildProcess, graceMs = 3_000): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    const timer = setTimeout(() => killGroup(child, "SIGKILL"), graceMs)
    child.once("exit", () => {
      clearTimeout(timer)
      live.delete(child)
      resolve()
    })
    child.stdin?.end()
    if (process.platform === "win32") child.kill()
  })
