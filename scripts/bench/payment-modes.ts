/**
 * Settlement modes side by side (issue 23), through the service's HTTP edge on a private devnet mining
 * a block every DEVNET_BLOCK_TIME s (0.5 by default, Arc's pace), one run per mode:
 * - an unpaid search (the 402 with the offer), the floor;
 * - a paid search (signed beforehand) from a payer with nothing unconfirmed: in `confirmed` the answer
 *   waits for the settlement's block, in `broadcast` until the node has taken it;
 * - back-to-back paid searches from one payer, signed beforehand and through `@x402/fetch` (402, sign,
 *   paid retry): in `broadcast` each is admitted while the payer's balance covers its unconfirmed ones;
 * - paid calls per second from 16 payers, each calling back to back.
 * `PAYMENT_MODES=broadcast` runs one mode; `PAYMENT_CPU_PROF=<file>` writes a CPU profile of this process
 * (service and caller) over the back-to-back calls of the last mode run (read it with lib/cpuProfile.ts).
 */
import { HttpServer } from "@effect/platform"
import { x402Client } from "@x402/core/client"
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http"
import type { PaymentRequired } from "@x402/core/types"
import { ExactEvmScheme } from "@x402/evm/exact/client"
import { wrapFetchWithPayment } from "@x402/fetch"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createTestClient, createWalletClient, http, parseAbi, parseEther, type PrivateKeyAccount } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { devnetPaymentSettings } from "../../devnet/accounts.js"
import { Devnet, devnetDefaults } from "../../devnet/Devnet.js"
import { AppConfig } from "../../layers/AppConfig.js"
import { appRoutesWith } from "../../src/App.js"
import { nodeServerOn } from "../../src/http/Server.js"
import { figure, latency, ms } from "./lib/report.js"
import { reportStages, reportTimeline, resetStages, stageTracer } from "./lib/stages.js"
import { x402Legs } from "./lib/x402Legs.js"

const USDC = "0x3600000000000000000000000000000000000000"
const NETWORK = "eip155:5042"
const PAYERS = 16
const CALLS = 30
const BACK_TO_BACK = 30
const blockTime = Number(process.env["DEVNET_BLOCK_TIME"] ?? "0.5")
const work = mkdtempSync(join(tmpdir(), "bench-payment-modes-"))
// The spans of a paid call, outermost first; indented ones run inside the one above.
const STAGES = [
  ["Operation.run", "in the service (decoded request to answer)"],
  ["PaymentGate.verify", "verify"],
  ["PaymentGate.decode", "  decode + check the header"],
  ["PaymentGate.claim", "  claim the authorization"],
  ["PaymentGate.admit", "  admit the payer (debt, turn, verify, record)"],
  ["PaymentGate.facilitatorVerify", "    signature + simulation + coverage"],
  ["PaymentVerify.reads", "      codes, coverage and the simulated transfer: one eth_call"],
  ["PaymentGate.operation", "operation (search)"],
  ["PaymentGate.settle", "settle: sent + receipt"],
  ["PaymentGate.settleBroadcast", "settle: signed + taken by the node"],
  ["PaymentGate.sign", "  sign (local)"],
  ["PaymentGate.send", "  eth_sendRawTransaction (in nonce order)"]
] as const
/** This process's CPU time (user + system) since `since`, per call. */
const cpuPerCall = (since: NodeJS.CpuUsage, calls: number) => {
  const used = process.cpuUsage(since)
  return ms((used.user + used.system) / 1000 / calls)
}
// A paid call's timeline: when each stage starts and ends after the request's span began.
const TIMELINE = [
  ["http.server POST", "the request (headers parsed to answer written)"],
  ["Operation.run", "in the service"],
  ["AtHead.snapshot", "head at arrival, index at it"],
  ["PaymentGate.verify", "verify"],
  ["PaymentGate.claim", "  claim"],
  ["PaymentGate.admit", "  admit"],
  ["PaymentVerify.reads", "    its eth_call"],
  ["PaymentGate.operation", "operation (search)"],
  ["Search.run", "  search itself"],
  ["PaymentGate.settleBroadcast", "settle"],
  ["PaymentGate.sign", "  sign"],
  ["PaymentGate.send", "  eth_sendRawTransaction"]
] as const
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const profileTo = process.env["PAYMENT_CPU_PROF"]

/** Runs `action` under V8's sampling profiler when `PAYMENT_CPU_PROF` names a file. */
const profiled = async <A>(action: () => Promise<A>): Promise<A> => {
  if (profileTo === undefined) return action()
  const session = new Session()
  session.connect()
  await session.post("Profiler.enable")
  await session.post("Profiler.setSamplingInterval", { interval: 100 })
  await session.post("Profiler.start")
  try {
    return await action()
  } finally {
    const { profile } = await session.post("Profiler.stop")
    writeFileSync(profileTo, JSON.stringify(profile))
    session.disconnect()
  }
}

const serve = (mode: string) =>
  appRoutesWith(Devnet.layerDeployment).pipe(
    Layer.provideMerge(nodeServerOn({ port: 0, host: "127.0.0.1" })),
    Layer.provideMerge(Devnet.layerWithDeployment({
      ...devnetDefaults,
      port: 0,
      verbose: false,
      blockTime: Option.some(blockTime),
      manifestPath: join(work, `manifest-${mode}.json`)
    })),
    Layer.provide(AppConfig.withSettings({
      ...devnetPaymentSettings(),
      SETTLEMENT_MODE: mode,
      DATA_DIR: join(work, `data-${mode}`),
      SAFETY_SCAN: "false"
    })),
    Layer.provide(stageTracer)
  )

const run = async (mode: string) => {
  console.log(`-- SETTLEMENT_MODE=${mode}, ${blockTime} s blocks`)
  const runtime = ManagedRuntime.make(serve(mode))
  try {
    const { address, manifest } = await runtime.runPromise(Effect.all({
      address: Effect.map(HttpServer.HttpServer, (server) => server.address),
      manifest: Effect.map(Devnet, (devnet) => devnet.manifest)
    }))
    if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
    const base = `http://127.0.0.1:${address.port}`
    const health = async () => (await (await fetch(`${base}/health`)).json()) as any
    while ((await health()).status !== "ok") await sleep(100)
    // Payers with native USDC for gas and ERC-20 USDC (the devnet's `deposit`) for fees.
    const transport = http(manifest.rpcUrl)
    const test = createTestClient({ transport, mode: "anvil" })
    const payers: Array<PrivateKeyAccount> = Array.from(
      { length: PAYERS },
      () => privateKeyToAccount(generatePrivateKey())
    )
    await Promise.all(payers.map(async (payer) => {
      await test.setBalance({ address: payer.address, value: parseEther("100") })
      const wallet = createWalletClient({ account: payer, transport })
      await wallet.writeContract({
        chain: null,
        address: USDC,
        abi: parseAbi(["function deposit() payable"]),
        functionName: "deposit",
        value: parseEther("10")
      })
    }))
    await sleep(blockTime * 3000)
    const search = (headers: Record<string, string> = {}) =>
      fetch(`${base}/trade/v1/search`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ query: "WETH", limit: 3 })
      })
    const offer: PaymentRequired = decodePaymentRequiredHeader((await search()).headers.get("payment-required") ?? "")
    const sign = (payer: PrivateKeyAccount) =>
      x402Client.fromConfig({
        schemes: [{ network: NETWORK, client: new ExactEvmScheme(payer) }],
        spendControls: { allowedAssets: [{ network: NETWORK, asset: USDC, maxAmountPerPayment: "10000" }] }
      }).createPaymentPayload(offer).then(encodePaymentSignatureHeader)
    const timedCall = async (headers: Record<string, string>, expected: number) => {
      const started = performance.now()
      const response = await search(headers)
      await response.arrayBuffer()
      if (response.status !== expected) throw new Error(`expected ${expected}, got ${response.status}`)
      return performance.now() - started
    }
    const settledAll = async () => {
      while ((await health()).payments.unconfirmed.count !== 0) await sleep(20)
    }

    const unpaid: Array<number> = []
    for (let i = 0; i < CALLS + 3; i++) {
      const took = await timedCall({}, 402)
      if (i >= 3) unpaid.push(took)
    }
    const floor = latency("unpaid search: 402 with the offer", unpaid)

    const fresh: Array<number> = []
    for (let i = 0; i < CALLS + 3; i++) {
      const header = await sign(payers[i % PAYERS]!)
      await settledAll()
      if (i === 3) resetStages()
      const took = await timedCall({ "payment-signature": header }, 200)
      if (i >= 3) fresh.push(took)
    }
    const paid = latency("paid search, payer with nothing unconfirmed", fresh)
    figure("  payment adds (p50 paid - p50 unpaid)", ms(paid.p50 - floor.p50))
    reportStages(STAGES)

    const repeat: Array<number> = []
    const one = payers[0]!
    const headers = await Promise.all(Array.from({ length: BACK_TO_BACK + 1 }, () => sign(one)))
    await settledAll()
    let cpu = process.cpuUsage()
    await profiled(async () => {
      for (const [i, header] of headers.entries()) {
        if (i === 1) {
          resetStages()
          cpu = process.cpuUsage()
        }
        repeat.push(await timedCall({ "payment-signature": header }, 200))
      }
    })
    const backToBack = latency("paid search, one payer back to back", repeat.slice(1))
    figure("  payment adds (p50 back to back - p50 unpaid)", ms(backToBack.p50 - floor.p50))
    figure("  CPU of this process per call (service + caller)", cpuPerCall(cpu, BACK_TO_BACK))
    reportStages(STAGES)
    figure("  timeline of a call", "")
    reportTimeline(TIMELINE, "PaymentGate.verify")

    // From outside, as an agent calls: `@x402/fetch` asks, is answered 402, signs and retries.
    const legs = x402Legs()
    const user = wrapFetchWithPayment(
      legs.transport,
      x402Client.fromConfig({
        schemes: [{ network: NETWORK, client: new ExactEvmScheme(payers[1]!) }],
        spendControls: { allowedAssets: [{ network: NETWORK, asset: USDC, maxAmountPerPayment: "10000" }] }
      })
    )
    await settledAll()
    const viaFetch: Array<number> = []
    for (let i = 0; i < BACK_TO_BACK + 1; i++) {
      if (i === 1) {
        resetStages()
        legs.reset()
        cpu = process.cpuUsage()
      }
      const started = performance.now()
      const response = await user(`${base}/trade/v1/search`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "WETH", limit: 3 })
      })
      await response.arrayBuffer()
      if (response.status !== 200) throw new Error(`@x402/fetch: expected 200, got ${response.status}`)
      viaFetch.push(performance.now() - started)
    }
    const fetched = latency("paid search by @x402/fetch, one payer back to back", viaFetch.slice(1))
    figure("  over the unpaid call (p50 - p50 unpaid)", ms(fetched.p50 - floor.p50))
    figure("  CPU of this process per call (service + caller)", cpuPerCall(cpu, BACK_TO_BACK))
    legs.report()
    reportStages(STAGES)
    figure("  timeline of the paid retry", "")
    reportTimeline(TIMELINE, "PaymentGate.verify")

    const perPayer = 6
    const signed = await Promise.all(
      payers.map((payer) => Promise.all(Array.from({ length: perPayer }, () => sign(payer))))
    )
    await settledAll()
    const started = performance.now()
    await Promise.all(signed.map(async (mine) => {
      for (const header of mine) await timedCall({ "payment-signature": header }, 200)
    }))
    const elapsed = performance.now() - started
    figure(
      `${PAYERS} payers x ${perPayer} paid calls back to back`,
      `${ms(elapsed)} (${((PAYERS * perPayer) / (elapsed / 1000)).toFixed(1)} paid calls/s)`
    )
    await settledAll()
  } finally {
    await runtime.dispose()
  }
}

try {
  for (const mode of (process.env["PAYMENT_MODES"] ?? "confirmed,broadcast").split(",")) await run(mode.trim())
} finally {
  rmSync(work, { recursive: true, force: true })
}
