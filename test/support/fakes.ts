/**
 * Fakes of the boundaries, for faults a real part cannot be made to produce. A fake implements what
 * its test needs; touching anything else dies with the member's name instead of returning `undefined`.
 */
import type { Context } from "effect"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import type { ChainRpc } from "../../layers/ChainRpc.js"
import { PaymentGate, type PaymentGateShape } from "../../layers/PaymentGate.js"

const unimplemented = (service: string, member: string) => `${service}.${member} is not part of this fake`

const fakeOf = <S extends object>(service: string, effectful: ReadonlyArray<string>, implemented: Partial<S>): S =>
  new Proxy(implemented, {
    get: (target, key) => {
      if (key in target) return target[key as keyof typeof target]
      if (typeof key === "symbol" || key === "then") return undefined
      const message = unimplemented(service, key)
      // A method returning an Effect dies when run; any other member throws where it is read.
      if (effectful.includes(key)) return () => Effect.dieMessage(message)
      throw new Error(message)
    }
  }) as S

export const fakeChainRpc = (implemented: Partial<Context.Tag.Service<ChainRpc>>): Context.Tag.Service<ChainRpc> =>
  fakeOf("ChainRpc", ["use", "request", "requestNow"], implemented)

/**
 * A payment gate for the gate's own failures, which a real gate cannot be made to produce on demand
 * (the payment library breaking mid-call, the facilitator unreachable): typically only `charge`.
 */
export const fakePaymentGate = (implemented: Partial<PaymentGateShape>): Layer.Layer<PaymentGate> =>
  Layer.succeed(PaymentGate, fakeOf("PaymentGate", ["verify", "settle", "release", "charge"], implemented))

/** viem's default cap on an HTTP JSON-RPC answer's body (10 MiB). */
export const VIEM_RESPONSE_CAP = 10 * 1024 * 1024

export interface OversizingNode {
  readonly url: string
  /** Calls answered over the cap so far. */
  readonly oversized: () => number
  /** Of those, calls that shared their HTTP request with other calls (a batch). */
  readonly oversizedInBatch: () => number
  readonly close: () => Promise<void>
}

/**
 * A JSON-RPC proxy in front of a real node that answers the calls `oversize` picks with a result over
 * viem's response cap, whether asked alone or in a batch; every other call gets the node's own answer.
 * No node can be made to answer a chosen call of a batch with megabytes (anvil answers what the chain
 * holds), so this stands in for a chain whose blocks and logs are that large.
 */
export const startOversizingNode = (
  target: string,
  oversize: (method: string, params: ReadonlyArray<any>) => boolean
): Promise<OversizingNode> =>
  new Promise((ready) => {
    let oversized = 0
    let oversizedInBatch = 0
    const padding = `0x${"0".repeat(VIEM_RESPONSE_CAP)}`
    const server = createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", async () => {
        const body = Buffer.concat(chunks).toString("utf8")
        const parsed = JSON.parse(body)
        const calls: Array<{ id: unknown; method: string; params?: Array<unknown> }> = Array.isArray(parsed)
          ? parsed
          : [parsed]
        const picked = calls.map((call) => oversize(call.method, call.params ?? []))
        const count = picked.filter(Boolean).length
        oversized += count
        if (calls.length > 1) oversizedInBatch += count
        try {
          const answer = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body })
          const answered = await answer.json()
          const answers: Array<{ id: unknown }> = Array.isArray(answered) ? answered : [answered]
          const padded = answers.map((one) =>
            picked[calls.findIndex((call) => call.id === one.id)]
              ? { jsonrpc: "2.0", id: one.id, result: padding }
              : one
          )
          response.writeHead(answer.status, { "content-type": "application/json" })
          response.end(JSON.stringify(Array.isArray(answered) ? padded : padded[0]))
        } catch {
          response.destroy()
        }
      })
    })
    server.listen(0, "127.0.0.1", () =>
      ready({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        oversized: () => oversized,
        oversizedInBatch: () => oversizedInBatch,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections()
            server.close(() => done())
          })
      }))
  })
