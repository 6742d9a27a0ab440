/**
 * `GET /metrics` as Prometheus reads it, around one paid quote over HTTP with `@x402/fetch`: Prometheus's
 * own parser (`promtool check metrics`, Debian's `prometheus` package; .ci/run installs it) accepts the
 * page, and the counters move by exactly what happened: the unpaid try answered 402, the paid quote
 * answered, one settled payment of the value the payer lost, one safety verdict measured.
 */
import { wrapFetchWithPayment } from "@x402/fetch"
import { spawnSync } from "node:child_process"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { tokenAddress } from "../support/devnet.js"
import { collectGarbage } from "../support/gc.js"
import { fees, newTaker, type PaidService, startPaidService } from "../support/paidService.js"
import { payerClient, USDC } from "../support/x402.js"

let service: PaidService

beforeAll(async () => {
  service = await startPaidService()
}, 120_000)
afterAll(() => service?.stop())

const scrape = async () => {
  const response = await fetch(`${service.server.baseUrl}/metrics`)
  expect(response.status).toBe(200)
  expect(response.headers.get("content-type")).toContain("text/plain; version=0.0.4")
  return response.text()
}

/** Every sample by series as written (name and label set), its value as text. */
const samplesOf = (text: string) =>
  new Map(
    text.split("\n").filter((line) => line !== "" && !line.startsWith("#")).map((line) => {
      const at = line.lastIndexOf(" ")
      return [line.slice(0, at), line.slice(at + 1)] as const
    })
  )

/** How much each series moved between two scrapes (a series absent before counts from zero). */
const moved = (before: string, after: string) => {
  const was = samplesOf(before)
  return (series: string) => BigInt(samplesOf(after).get(series) ?? "0") - BigInt(was.get(series) ?? "0")
}

const sumOf = (text: string, prefix: string) =>
  [...samplesOf(text)].filter(([series]) => series.startsWith(prefix)).reduce((sum, [, v]) => sum + BigInt(v), 0n)

describe("GET /metrics around a paid quote", () => {
  it(
    "is accepted by promtool and moves by one 402, one answered quote, one settled payment and one verdict",
    async () => {
      const taker = await newTaker(service)
      const WETH = tokenAddress(service.devnet.manifest, "WETH")
      const before = await scrape()
      const paidFetch = wrapFetchWithPayment(fetch, payerClient(service.payer, "eip155:5042", "5000000"))
      const [payer] = await fees(service, async () => {
        const quoted = await paidFetch(`${service.server.baseUrl}/trade/v1/quote`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ sell: USDC, buy: WETH, amount: "2500", taker: taker.address })
        })
        expect(quoted.status).toBe(200)
      })
      const after = await scrape()
      const delta = moved(before, after)
      expect(delta(`checkpoint_requests_total{operation="quote",status="payment_required",error=""}`)).toBe(1n)
      expect(delta(`checkpoint_requests_total{operation="quote",status="answered",error=""}`)).toBe(1n)
      expect(delta(`checkpoint_request_seconds_count{operation="quote",status="answered",error=""}`)).toBe(1n)
      expect(delta(`checkpoint_payments_total{outcome="settled",reason=""}`)).toBe(1n)
      expect(payer).toBeLessThan(0n)
      expect(delta(`checkpoint_payment_value_usdc_base_units_total{outcome="settled"}`)).toBe(-payer!)
      expect(
        sumOf(after, "checkpoint_payments_total{outcome=\"refused\"") -
          sumOf(before, "checkpoint_payments_total{outcome=\"refused\"")
      )
        .toBe(0n)
      expect(sumOf(after, "checkpoint_safety_verdicts_total") - sumOf(before, "checkpoint_safety_verdicts_total")).toBe(
        1n
      )
      expect(delta("checkpoint_safety_simulation_seconds_count")).toBe(1n)
      expect(delta("checkpoint_requests_in_flight")).toBe(0n)
      expect(sumOf(after, "checkpoint_rpc_calls_total")).toBeGreaterThan(sumOf(before, "checkpoint_rpc_calls_total"))
      expect(Number(samplesOf(after).get("checkpoint_index_block"))).toBeGreaterThan(0)
      expect(samplesOf(after).has("checkpoint_index_lag_blocks")).toBe(true)

      const promtool = spawnSync("promtool", ["check", "metrics"], { input: after, encoding: "utf8" })
      expect(promtool.error).toBeUndefined()
      expect(promtool.stderr + promtool.stdout).toBe("")
      expect(promtool.status).toBe(0)
    },
    120_000
  )

  it("reports the process's memory: the heap after a full collection follows what is kept alive", async () => {
    const afterFullGc = async () => {
      collectGarbage()
      // Node reports a collection to its observers after it, on a later turn of the loop.
      await new Promise((done) => setTimeout(done, 50))
      return samplesOf(await scrape())
    }
    const mb = (samples: Map<string, string>, series: string) => Number(samples.get(series)) / 2 ** 20
    const live = "checkpoint_heap_after_full_gc_bytes"

    const before = await afterFullGc()
    const held: { objects?: ReadonlyArray<object> } = {}
    held.objects = Array.from({ length: 400_000 }, (_, n) => ({ n, s: `held ${n}` }))
    const holding = await afterFullGc()
    delete held.objects
    const released = await afterFullGc()

    expect(mb(holding, live)).toBeGreaterThan(mb(before, live) + 20)
    expect(mb(released, live)).toBeLessThan(mb(holding, live) - 20)
    for (const samples of [before, holding, released]) {
      expect(mb(samples, live)).toBeGreaterThan(10)
      expect(mb(samples, "checkpoint_heap_used_bytes")).toBeLessThan(mb(samples, "checkpoint_heap_limit_bytes"))
      expect(mb(samples, "checkpoint_process_resident_memory_bytes")).toBeGreaterThan(mb(samples, live))
    }
    const promtool = spawnSync("promtool", ["check", "metrics"], { input: await scrape(), encoding: "utf8" })
    expect(promtool.stderr + promtool.stdout).toBe("")
  })
})
