/**
 * An anvil's condition, read when a chain request timed out: it must tell an answering node whose
 * output is drained from one that is stopped, on a real anvil (SIGSTOP is the fault, made for real).
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { clientsFor, type PrivateDevnet, runningDevnetConditions, startDevnet } from "../support/devnet.js"

describe("anvil's condition", () => {
  let devnet: PrivateDevnet
  beforeAll(async () => {
    devnet = await startDevnet()
  })
  afterAll(() => devnet.stop())

  const condition = () => Effect.runSync(devnet.handle.anvil.condition)
  const anvilPid = () => Number(/^anvil (\d+):/.exec(condition())?.[1] ?? expect.fail(condition()))

  it("names the process, its kernel waits and the output drained, for every running private devnet", async () => {
    await clientsFor(devnet.manifest).public.getBlockNumber()
    const line = condition()
    expect(line).toMatch(/^anvil \d+: state [RS], cpu \d+ ticks, waits \S+×\d+/)
    expect(line).toMatch(/stdout flowing=true stderr flowing=true/)
    expect(Number(/drained (\d+) B/.exec(line)?.[1])).toBeGreaterThan(0)
    // Read again, the line has moved on (CPU ticks, output drained): the same anvil, in the same shape.
    const listed = runningDevnetConditions().filter((entry) => entry.startsWith(`${devnet.manifest.rpcUrl}: `))
    expect(listed).toHaveLength(1)
    expect(listed[0]).toMatch(new RegExp(`^\\S+: anvil ${anvilPid()}: state [RS], cpu \\d+ ticks, waits \\S+×\\d+`))
  })

  it("says stopped for an anvil that was stopped, and gone once its devnet is", async () => {
    const pid = anvilPid()
    process.kill(pid, "SIGSTOP")
    try {
      // A stop is delivered to each thread in turn (`do_signal_stop` while it lands): polled until whole.
      await expect.poll(condition).toMatch(new RegExp(`^anvil ${pid}: state T,`))
    } finally {
      process.kill(pid, "SIGCONT")
    }
    await devnet.stop()
    expect(condition()).toMatch(/^anvil guard \d+ exited/)
    expect(runningDevnetConditions().some((line) => line.startsWith(devnet.manifest.rpcUrl))).toBe(false)
  })
})
