/**
 * An agent's back-to-back paid calls measured from outside (issue 35): the service in its own process as
 * `npm start` runs it (`RPC_URL` on a private devnet mining a block every PAYMENT_BLOCK_TIME s, 0.5 by
 * default; settlements `broadcast`), called over loopback HTTP by the official client, `@x402/fetch`,
 * from one payer, each call right after the previous answer. Beside it in the same run, the unpaid call
 * (its 402 with the offer), the floor every paid call also pays. In-process figures of the same flow,
 * split by stage: `payment-modes`.
 *
 * Measured once the service has done what it does on starting (the index's catch-up, the safety scan of
 * every token, a few seconds at a hundred chain calls a second): its CPU under a tenth of a core over
 * a second, as a service that has been running a while. The paid call is split as the agent's side sees
 * it, around the transport `@x402/fetch` is given (the package's code untouched): its first request
 * (answered 402), the client's own work between the two (read the offer, sign, encode), the paid retry.
 *
 * After the calls it waits for every settlement and checks what was charged: the payer's USDC fell and
 * the operator's rose by exactly the number of 200 answers (warm-up included) times the price.
 */
import { x402Client } from "@x402/core/client"
import { decodePaymentRequiredHeader } from "@x402/core/http"
import { ExactEvmScheme } from "@x402/evm/exact/client"
import { wrapFetchWithPayment } from "@x402/fetch"
import { Option } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createPublicClient, type Hex, http, parseAbi } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { devnetPaymentSettings } from "../../devnet/accounts.js"
import { benchDevnet } from "./lib/devnet.js"
import { cpuSeconds, stop, waitFor } from "./lib/edgeLoad.js"
import { figure, latency, ms } from "./lib/report.js"
import { serviceProcess } from "./lib/serviceProcess.js"
import { x402Legs } from "./lib/x402Legs.js"

const CALLS = Number(process.env["PAYMENT_OUTSIDE_CALLS"] ?? 100)
/** Calls before the measured ones, of each kind: the service's first paid calls compile its paths. */
const WARM_UP = 10
/** The service's start-up work is done when it uses less than this share of a core over a second. */
const SETTLED_CPU = 0.1
const BLOCK_TIME = Number(process.env["PAYMENT_BLOCK_TIME"] ?? 0.5)
const NETWORK = "eip155:5042"
const USDC = "0x3600000000000000000000000000000000000000"
const work = mkdtempSync(join(tmpdir(), "bench-payment-outside-"))

const devnet = await benchDevnet("payment-outside", { blockTime: Option.some(BLOCK_TIME) })
const service = serviceProcess(devnet, work)

const chain = createPublicClient({ transport: http(devnet.manifest.rpcUrl) })
const usdc = parseAbi(["function balanceOf(address) view returns (uint256)"])
const balanceOf = (owner: Hex) =>
  chain.readContract({ address: USDC, abi: usdc, functionName: "balanceOf", args: [owner] })
const payer = privateKeyToAccount(devnet.manifest.accounts[2]!.privateKey as Hex)
const operator = devnetPaymentSettings().PAY_TO as Hex

/** Seconds until the process `pid` used less than `SETTLED_CPU` of a core over a second (at most a minute). */
const settled = async (pid: number) => {
  const started = performance.now()
  for (let second = 0; second < 60; second++) {
    const before = cpuSeconds(pid)
    await new Promise((done) => setTimeout(done, 1000))
    if (cpuSeconds(pid) - before < SETTLED_CPU) break
  }
  return (performance.now() - started) / 1000
}

const search = { query: "WETH", limit: 3 }
const ask = (transport: typeof fetch) =>
  transport(`${service.baseUrl}/trade/v1/search`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(search)
  })

try {
  await waitFor(service, async (answer) => ((await answer.json()) as { status: string }).status === "ok")
  const settledAfter = await settled(service.child.pid!)
  figure("  service settled after start-up", `${settledAfter.toFixed(1)} s`)
  const offer = await ask(fetch)
  if (offer.status !== 402) throw new Error(`payment-outside: the unpaid call answered ${offer.status}, not 402`)
  const price = BigInt(decodePaymentRequiredHeader(offer.headers.get("payment-required") ?? "").accepts[0]!.amount)
  await offer.arrayBuffer()

  const unpaid: Array<number> = []
  for (let i = 0; i < WARM_UP + CALLS; i++) {
    const started = performance.now()
    const answer = await ask(fetch)
    await answer.arrayBuffer()
    if (i >= WARM_UP) unpaid.push(performance.now() - started)
  }

  const legs = x402Legs()
  const agent = wrapFetchWithPayment(
    legs.transport,
    x402Client.fromConfig({
      schemes: [{ network: NETWORK, client: new ExactEvmScheme(payer) }],
      spendControls: { allowedAssets: [{ network: NETWORK, asset: USDC, maxAmountPerPayment: price.toString() }] }
    })
  )
  const [payerBefore, operatorBefore] = await Promise.all([balanceOf(payer.address), balanceOf(operator)])
  const paid: Array<number> = []
  const refused = new Map<number, number>()
  let answered = 0
  let cpuBefore = 0
  for (let i = 0; i < WARM_UP + CALLS; i++) {
    if (i === WARM_UP) {
      cpuBefore = cpuSeconds(service.child.pid!)
      legs.reset()
    }
    const started = performance.now()
    const answer = await ask(agent)
    await answer.arrayBuffer()
    if (answer.status !== 200) refused.set(answer.status, (refused.get(answer.status) ?? 0) + 1)
    else {
      answered++
      if (i >= WARM_UP) paid.push(performance.now() - started)
    }
  }
  const serviceCpu = cpuSeconds(service.child.pid!) - cpuBefore

  const floor = latency(`unpaid search (402 with the offer), ${BLOCK_TIME} s blocks`, unpaid)
  const through = latency("paid search by @x402/fetch, one payer back to back", paid)
  figure("  over the unpaid call (p50 - p50 unpaid)", ms(through.p50 - floor.p50))
  figure("  service CPU per paid call (its own process)", ms((1000 * serviceCpu) / Math.max(paid.length, 1)))
  legs.report()
  if (refused.size > 0) figure("  NOT 200", JSON.stringify(Object.fromEntries(refused)))

  // Every settlement mined: each paid answer moved exactly its price, nothing else moved.
  const expected = BigInt(answered) * price
  let payerAfter = payerBefore
  let operatorAfter = operatorBefore
  for (let waited = 0; waited < 30_000; waited += 250) {
    ;[payerAfter, operatorAfter] = await Promise.all([balanceOf(payer.address), balanceOf(operator)])
    if (operatorAfter - operatorBefore >= expected) break
    await new Promise((done) => setTimeout(done, 250))
  }
  const charged = payerBefore - payerAfter
  const received = operatorAfter - operatorBefore
  figure("  charged / received / 200 answers x price", `${charged} / ${received} / ${expected} base units`)
  if (charged !== expected || received !== expected) {
    throw new Error(`payment-outside: charged ${charged}, received ${received}, expected ${expected}`)
  }
} finally {
  await stop(service)
  await devnet.stop()
  rmSync(work, { recursive: true, force: true })
}
