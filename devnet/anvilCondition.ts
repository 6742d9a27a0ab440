/**
 * What an anvil that stopped answering is doing, in one line, read from /proc: a node that accepts
 * connections but answers nothing can be blocked writing a log line into an undrained stdout (a thread
 * waits in `sock_alloc_send_pskb`: Node's stdio pipes are socket pairs, and anvil's network writes never
 * block a thread), stuck on a lock (threads in `futex_*`, no CPU), spinning (CPU climbing), stopped,
 * or gone. The log line of a test that timed out names which, instead of "took too long".
 */
import type { ChildProcess } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"

/** How much of anvil's output this process has drained, and when it last did. */
export interface Drained {
  bytes: number
  lastAt: number
}

const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, "utf8").trim()
  } catch {
    return undefined
  }
}

/** The guard's children (anvil runs under the `sh` guard of childGuard.ts). */
const childrenOf = (pid: number): Array<number> =>
  (read(`/proc/${pid}/task/${pid}/children`) ?? "").split(/\s+/).filter((s) => s !== "").map(Number)

/** State letter and CPU ticks (user + system) from /proc/<pid>/stat; the name may hold spaces. */
const statOf = (pid: number) => {
  const stat = read(`/proc/${pid}/stat`)
  if (stat === undefined) return undefined
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return { state: fields[0] ?? "?", cpuTicks: Number(fields[11]) + Number(fields[12]) }
}

/** Where each thread sleeps in the kernel, counted: `futex_do_wait×4 sock_alloc_send_pskb×1`. */
const waitsOf = (pid: number): string => {
  let tasks: Array<string>
  try {
    tasks = readdirSync(`/proc/${pid}/task`)
  } catch {
    return "no threads readable"
  }
  const counts = new Map<string, number>()
  for (const task of tasks) {
    const wchan = read(`/proc/${pid}/task/${task}/wchan`) || "running"
    counts.set(wchan, (counts.get(wchan) ?? 0) + 1)
  }
  return [...counts].map(([wchan, n]) => `${wchan}×${n}`).join(" ")
}

const outputOf = (child: ChildProcess, drained: Drained, now: number) =>
  `output drained ${drained.bytes} B, last ${now - drained.lastAt} ms ago, stdout flowing=${
    String(child.stdout?.readableFlowing ?? "none")
  } stderr flowing=${String(child.stderr?.readableFlowing ?? "none")}`

/** One line on the anvil under `guard`: process state, CPU, kernel waits per thread, output drained. */
export const anvilCondition = (guard: ChildProcess, drained: Drained): string => {
  const now = Date.now()
  const output = outputOf(guard, drained, now)
  if (guard.pid === undefined) return `anvil guard never started; ${output}`
  if (guard.exitCode !== null || guard.signalCode !== null) {
    return `anvil guard ${guard.pid} exited (${guard.exitCode ?? guard.signalCode}); ${output}`
  }
  const anvil = childrenOf(guard.pid).find((pid) => read(`/proc/${pid}/comm`) === "anvil")
  const stat = anvil === undefined ? undefined : statOf(anvil)
  if (anvil === undefined || stat === undefined) return `anvil guard ${guard.pid} has no anvil child; ${output}`
  return `anvil ${anvil}: state ${stat.state}, cpu ${stat.cpuTicks} ticks, waits ${waitsOf(anvil)}; ${output}`
}
