/**
 * Where each anvil keeps the historic states it moves out of memory (`--cache-path`).
 *
 * Left to itself anvil writes them to `~/.foundry/anvil/tmp/anvil-state-*` and never removes them
 * when it is stopped by a signal: hundreds of megabytes per devnet, gigabytes for a long one. The
 * service still needs recent history (the indexer and the tests read state at past blocks), so the
 * states are kept, but each anvil gets a directory of its own under the OS temporary directory,
 * named after the process that started it. Its guard removes it once anvil has exited (even when
 * that process was SIGKILLed), that process removes it when the guard ends, and every new one first
 * sweeps the directories of processes that no longer exist (a guard killed with its whole group).
 */
import { mkdirSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** Parent of every devnet anvil's state directory; `TMPDIR` moves it. */
export const anvilStatesRoot = (): string => join(tmpdir(), "trade-checkpoint-anvil")

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/** Removes the directories whose creating process is gone. */
export const sweepOrphanedStates = (root = anvilStatesRoot()): ReadonlyArray<string> => {
  let entries: Array<string>
  try {
    entries = readdirSync(root)
  } catch {
    return []
  }
  const removed: Array<string> = []
  for (const entry of entries) {
    const pid = Number(entry.split("-")[0])
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || alive(pid)) continue
    rmSync(join(root, entry), { recursive: true, force: true })
    removed.push(entry)
  }
  return removed
}

let made = 0

/** A fresh, empty directory for one anvil, after sweeping orphans. */
export const freshStatesDir = (): string => {
  const root = anvilStatesRoot()
  sweepOrphanedStates(root)
  made += 1
  const dir = join(root, `${process.pid}-${made}-${Date.now().toString(36)}`)
  mkdirSync(dir, { recursive: true })
  return dir
}

export const removeStatesDir = (dir: string): void => rmSync(dir, { recursive: true, force: true })
