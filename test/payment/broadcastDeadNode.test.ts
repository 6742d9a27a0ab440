/**
 * A broadcast settlement whose node dies under it: the node is killed (the real anvil stopped) while
 * the settlement's send is on its way, held at the JSON-RPC proxy until then. The call is refused
 * uncharged, below the unconfirmed cap as past it: a settlement the node never took is not served (no
 * one could send it after a restart, whose nonce counter would number another settlement in its place).
 * The nonce it took is followed to be filled, and with no node to answer, the follow gives up after
 * `SETTLEMENT_GIVE_UP_AFTER_MS` (its fate unknown, which the operator's log says) instead of looping
 * for ever, and the service closes. The log is read as written (console spied on, still printing).
 */
import { describe, expect, it, vi } from "vitest"
import { gateHarness, search } from "./harness.js"

const killedWhileSending = (cap: Record<string, string>) => {
  let reached = () => {}
  const sending = new Promise<void>((resolve) => (reached = resolve))
  let release = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  let first = true
  const harness = gateHarness(
    5,
    { SETTLEMENT_MODE: "broadcast", SETTLEMENT_GIVE_UP_AFTER_MS: "500", ...cap },
    {},
    (call) => {
      if (call.method !== "eth_sendRawTransaction" || !first) return undefined
      first = false
      reached()
      return released
    }
  )
  return async () => {
    const printed = vi.spyOn(console, "log")
    const paid = await harness.signFor(search)
    const answer = harness.call(search, paid.header)
    await sending
    await harness.stopNode()
    release()
    expect(await answer).toMatchObject({ _tag: "Left", left: { _tag: "PaymentUnavailable" } })
    const gaveUp = () => printed.mock.calls.some((line) => String(line[0]).includes("fate unknown"))
    for (let attempt = 0; attempt < 200 && !gaveUp(); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const said = gaveUp()
    printed.mockRestore()
    expect(said).toBe(true)
    await harness.close()
  }
}

describe("a broadcast settlement whose node is killed while it is sent", () => {
  it("is refused uncharged, its follow-up gives up and says so, the service closes", killedWhileSending({}))
})

describe("a broadcast settlement past the cap whose node is killed while it is sent", () => {
  it(
    "is refused uncharged, its follow-up gives up and says so, the service closes",
    killedWhileSending({ SETTLEMENT_UNCONFIRMED_CAP: "0" })
  )
})
