/**
 * Keeps anvil from outliving the process that started it.
 *
 * Each anvil runs under a tiny `sh` guard whose reader blocks on its stdin, a pipe from us. When we
 * close the pipe, or when this process dies by any means (even SIGKILL, which runs no handler), the
 * read returns and the guard kills anvil. The guard leads its own process group, so a synchronous
 * `exit` hook can also kill the whole group if the scope never got to close.
 *
 * A child may own a directory (anvil's historic states, anvilStates.ts): the guard removes it once the
 * child has exited, and so does this process when the guard ends or when it kills the group on exit.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { removeStatesDir } from "./anvilStates.js"

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
  // A trapped signal ends the first wait early; the directory goes only once the child is gone.
  "while kill -0 $child 2>/dev/null; do wait $child; done",
  "kill $reader 2>/dev/null",
  "[ -n \"$GUARD_REMOVE_DIR\" ] && rm -rf \"$GUARD_REMOVE_DIR\"",
  "exit $status"
].join("\n")

/** Each live guard, with the directory it owns (if any). */
const live = new Map<ChildProcess, string | undefined>()
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
    for (const [child, dir] of live) {
      killGroup(child, "SIGKILL")
      if (dir !== undefined) removeStatesDir(dir)
    }
  })
}

/**
 * Spawns `command args` under the guard; stdout and stderr are pipes the caller must drain. `ownedDir`
 * is removed once the child has exited.
 */
export const spawnGuarded = (command: string, args: ReadonlyArray<string>, ownedDir?: string): ChildProcess => {
  hookExit()
  const env = ownedDir === undefined ? process.env : { ...process.env, GUARD_REMOVE_DIR: ownedDir }
  const child = process.platform === "win32"
    ? spawn(command, [...args], { stdio: ["pipe", "pipe", "pipe"] })
    : spawn("sh", ["-c", GUARD, "anvil-guard", command, ...args], {
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
      env
    })
  live.set(child, ownedDir)
  child.once("exit", () => {
    live.delete(child)
    if (ownedDir !== undefined) removeStatesDir(ownedDir)
  })
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
