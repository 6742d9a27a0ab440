/**
 * Paid calls over time at chain scale (issue 37): the service as `npm start` runs it (its own process,
 * `RPC_URL` on a private devnet mining a block every SOAK_BLOCK_TIME s, 0.5 by default, settlements
 * `broadcast`), paid by x402 signatures from the devnet's client accounts.
 *
 * First the devnet's own market for one minute, then the same devnet grown by SOAK_POOLS (10,000) real
 * Uniswap v2 pools (lib/devnetMarket.ts), indexed by the running service as a live chain's would be,
 * then SOAK_MINUTES (15) minutes. Each minute: paid quotes (USDC→WETH) and paid searches back to back
 * for SOAK_LOAD_SEC (40) s, then the rest of the minute idle. One row per minute: p50/p99 of each,
 * RSS and the live heap (`checkpoint_heap_after_full_gc_bytes` from the service's /metrics: RSS can climb
 * to the heap limit's room without a leak, the live heap cannot), CPU while loaded and while idle, every
 * answer that was not a 200, and what a plain read of the head's state took from the bench meanwhile (the
 * node's own wait, under every paid call). "Flat" reads off the rows;
 * the first row is the 40-pool yardstick of the same run. With SOAK_SPANS=1 the service exports its
 * spans to the bench (lib/spanCollector.ts) and each row is followed by the p50 of the paid call's
 * steps in that minute: where the time went. SOAK_NODE_OPTIONS sets the service's own node options.
 */
import { x402Client } from "@x402/core/client"
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http"
import { ExactEvmScheme } from "@x402/evm/exact/client"
import { Option } from "effect"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createTestClient, type Hex, http } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { benchDevnet } from "./lib/devnet.js"
import { devnetMarket } from "./lib/devnetMarket.js"
import { cpuSeconds, stop, waitFor } from "./lib/edgeLoad.js"
import { ms, percentile } from "./lib/report.js"
import { serviceProcess } from "./lib/serviceProcess.js"
import { spanCollector } from "./lib/spanCollector.js"

const POOLS = Number(process.env["SOAK_POOLS"] ?? 10_000)
const MINUTES = Number(process.env["SOAK_MINUTES"] ?? 15)
const LOAD_SEC = Number(process.env["SOAK_LOAD_SEC"] ?? 40)
const BLOCK_TIME = Number(process.env["SOAK_BLOCK_TIME"] ?? 0.5)
const NETWORK = "eip155:5042"
const USDC = "0x3600000000000000000000000000000000000000"
const work = mkdtempSync(join(tmpdir(), "bench-soak-"))

/**
 * How many past blocks' states anvil keeps: enough for the service's reads at a block it has just
 * indexed. Left to anvil, a node mining every 0.5 s keeps 1,500 full copies of the state (about 30 MB
 * each at 10,000 pools), the growth that stopped the first soaks; `--prune-history` bounds it only when
 * anvil is not given `--block-time`, so the pace is kept from here.
 */
const KEPT_STATES = Number(process.env["SOAK_KEPT_STATES"] ?? 64)

const devnet = await benchDevnet("soak", { blockTime: Option.none(), keptStates: Option.some(KEPT_STATES) })
const spans = process.env["SOAK_SPANS"] === "1" ? await spanCollector() : undefined
/** Node options of the service process only (SOAK_NODE_OPTIONS, e.g. `--max-old-space-size=384`), not the bench's. */
const nodeOptions = process.env["SOAK_NODE_OPTIONS"]
const service = serviceProcess(devnet, work, {
  ...(spans === undefined ? {} : { OTEL_EXPORTER_OTLP_ENDPOINT: spans.url }),
  ...(nodeOptions === undefined ? {} : { NODE_OPTIONS: nodeOptions })
})
/** The steps of a paid call shown per row (SOAK_SPANS=1): the node waits and the service's own work. */
const STEPS = [
  "AtHead.snapshot",
  "PaymentVerify.reads",
  "Quote.route",
  "Quote.judge",
  "OwnerPowers.keyOf",
  "Search.run",
  "PaymentGate.send",
  "Simulator.simulate"
]

/**
 * The chain's pace, kept from here: one `evm_mine` per BLOCK_TIME, never two at once (anvil's
 * `evm_setIntervalMining` takes whole seconds only). The pools are built between two paced stretches
 * with automine instead, a block per transaction as fast as anvil takes them; the service still indexes
 * every build block from its subscription, as it would a live chain's. `mined` counts the paced blocks
 * and their time, for the rows: at 10,000 pools anvil takes longer than 0.5 s to mine one.
 */
const node = createTestClient({ mode: "anvil", transport: http(devnet.manifest.rpcUrl) })
const mined = { blocks: 0, ms: 0 }
let mining: Promise<void> | undefined
let pace: ReturnType<typeof setInterval> | undefined
const paced = async () => {
  await node.setAutomine(false)
  pace = setInterval(() => {
    if (mining !== undefined) return
    const started = performance.now()
    mining = node.mine({ blocks: 1 })
      .then(() => {
        mined.blocks++
        mined.ms += performance.now() - started
      })
      .catch((error) => console.error(`soak: evm_mine failed: ${error}`))
      .finally(() => (mining = undefined))
  }, BLOCK_TIME * 1000)
}
const automined = async () => {
  clearInterval(pace)
  await mining
  await node.setAutomine(true)
}

const health = async () =>
  (await (await fetch(`${service.baseUrl}/health`)).json()) as { status: string; indexedBlock?: number }

const indexedPast = async (block: number) => {
  for (let waited = 0; waited < 600_000; waited += 200) {
    const now = await health().catch(() => undefined)
    if (now?.status === "ok" && (now.indexedBlock ?? -1) >= block) return
    await new Promise((done) => setTimeout(done, 200))
  }
  throw new Error(`soak: the service did not index block ${block} within 10 minutes`)
}

const weth = devnet.manifest.tokens!["WETH"]
const calls = {
  quote: { path: "/trade/v1/quote", body: JSON.stringify({ sell: USDC, buy: weth, amount: "250" }) },
  search: { path: "/trade/v1/search", body: JSON.stringify({ query: "WETH", limit: 10 }) }
} as const
type Call = keyof typeof calls

const payers = devnet.manifest.accounts.slice(0, 8).map((entry) =>
  x402Client.fromConfig({
    schemes: [{ network: NETWORK, client: new ExactEvmScheme(privateKeyToAccount(entry.privateKey as Hex)) }],
    spendControls: { allowedAssets: [{ network: NETWORK, asset: USDC, maxAmountPerPayment: "100000" }] }
  })
)

const post = (call: Call, headers: Record<string, string> = {}) =>
  fetch(`${service.baseUrl}${calls[call].path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: calls[call].body
  })

/** Each operation's offer, read once from its 402: prices do not change while the bench runs. */
const offers = async () => {
  const read = async (call: Call) => {
    const answer = await post(call)
    if (answer.status !== 402) throw new Error(`soak: unpaid ${call} answered ${answer.status}, not 402`)
    return decodePaymentRequiredHeader(answer.headers.get("payment-required") ?? "")
  }
  return { quote: await read("quote"), search: await read("search") }
}

interface Minute {
  readonly took: Record<Call, Array<number>>
  readonly refused: Map<string, number>
  readonly loadedCpu: number
  readonly idleCpu: number
  readonly rssMb: number
  /** The service's heap in use at its last full collection, at the minute's end. */
  readonly liveHeapMb: number | undefined
  readonly anvilMb: number
  /** Paced blocks mined in the minute, and the mean time anvil took for one. */
  readonly blocks: number
  readonly blockMs: number
  /** The bench's own reads at the node's head while the calls ran (HEAD_READ_EVERY_MS apart): the floor under every paid call. */
  readonly headReads: Array<number>
}

/**
 * A read of the head's state from outside the service, one at a time while the calls run: what any
 * state read at the head costs on this node then. Anvil answers it only after the block it is mining,
 * so at 10,000 pools it shows the wait each of the paid call's node reads meets, beside the call itself.
 */
const HEAD_READ_EVERY_MS = 100
const headRead = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "eth_call",
  params: [{ to: USDC, data: "0x18160ddd" }, "latest"]
})
const headReads = async (until: number) => {
  const took: Array<number> = []
  while (performance.now() < until) {
    const started = performance.now()
    await fetch(devnet.manifest.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: headRead
    })
      .then((answer) => answer.json())
    took.push(performance.now() - started)
    await new Promise((done) => setTimeout(done, HEAD_READ_EVERY_MS))
  }
  return took
}

/** A gauge of the service's own /metrics, in MB; none before it has a sample. */
const gaugeMb = async (name: string) => {
  const page = await (await fetch(`${service.baseUrl}/metrics`)).text()
  const line = page.split("\n").find((entry) => entry.startsWith(`${name} `))
  return line === undefined ? undefined : Number(line.slice(name.length + 1)) / 2 ** 20
}

/** Anvil's pid: the child of its guard (devnet/childGuard.ts) named `anvil`. */
const anvilPid = () =>
  readFileSync(`/proc/${devnet.handle.anvil.pid}/task/${devnet.handle.anvil.pid}/children`, "utf8").trim().split(/\s+/)
    .map(Number).find((pid) => readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "anvil")!
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024

/** Paid calls back to back for `loadSec`, quote and search in turn, each payer in turn; then idle. */
const minute = async (offer: Awaited<ReturnType<typeof offers>>, loadSec: number, idleSec: number) => {
  const pid = service.child.pid!
  const took: Record<Call, Array<number>> = { quote: [], search: [] }
  const refused = new Map<string, number>()
  const cpuBefore = cpuSeconds(pid)
  const minedBefore = { ...mined }
  const until = performance.now() + loadSec * 1000
  const reads = headReads(until)
  for (let i = 0; performance.now() < until; i++) {
    const call: Call = i % 2 === 0 ? "quote" : "search"
    const signature = encodePaymentSignatureHeader(await payers[i % payers.length]!.createPaymentPayload(offer[call]))
    const started = performance.now()
    const answer = await post(call, { "payment-signature": signature })
    const body = await answer.text()
    if (answer.status === 200) took[call].push(performance.now() - started)
    else {
      const kind = `${call} ${answer.status} ${/"code":"([a-z_]+)"/.exec(body)?.[1] ?? ""}`
      refused.set(kind, (refused.get(kind) ?? 0) + 1)
    }
  }
  const loadedCpu = (cpuSeconds(pid) - cpuBefore) / loadSec
  const headReadsTook = await reads
  const idleBefore = cpuSeconds(pid)
  await new Promise((done) => setTimeout(done, idleSec * 1000))
  const idleCpu = (cpuSeconds(pid) - idleBefore) / idleSec
  const blocks = mined.blocks - minedBefore.blocks
  const blockMs = blocks === 0 ? 0 : (mined.ms - minedBefore.ms) / blocks
  return {
    took,
    refused,
    loadedCpu,
    idleCpu,
    rssMb: rssMb(pid),
    liveHeapMb: await gaugeMb("checkpoint_heap_after_full_gc_bytes"),
    anvilMb: rssMb(anvilPid()),
    blocks,
    blockMs,
    headReads: headReadsTook
  } satisfies Minute
}

const p = (samples: ReadonlyArray<number>, q: number) =>
  samples.length === 0 ? "—" : ms(percentile([...samples].sort((a, b) => a - b), q))

const stepsRow = () => {
  if (spans === undefined) return
  const taken = spans.take()
  console.log(
    `     p50 of: ${
      STEPS.map((step) => `${step} ${p(taken.get(step) ?? [], 50)} (${taken.get(step)?.length ?? 0})`).join(", ")
    }${spans.lost() === 0 ? "" : `; span exports cut short so far: ${spans.lost()}`}`
  )
}

const row = (label: string, m: Minute) => {
  console.log(
    `   ${label.padEnd(14)} quote ${p(m.took.quote, 50).padStart(8)} / ${p(m.took.quote, 99).padStart(8)}` +
      `  search ${p(m.took.search, 50).padStart(8)} / ${p(m.took.search, 99).padStart(8)}` +
      `  calls ${String(m.took.quote.length + m.took.search.length).padStart(5)}` +
      `  RSS ${m.rssMb.toFixed(0).padStart(4)} MB  live heap ${m.liveHeapMb?.toFixed(0).padStart(4) ?? "   —"} MB` +
      `  CPU loaded ${(100 * m.loadedCpu).toFixed(0).padStart(3)} %` +
      `  idle ${(100 * m.idleCpu).toFixed(1).padStart(5)} %` +
      `  anvil ${m.anvilMb.toFixed(0).padStart(5)} MB, ${String(m.blocks).padStart(3)} blocks of ${ms(m.blockMs)}` +
      `  head read ${p(m.headReads, 50)} / ${p(m.headReads, 99)}` +
      (m.refused.size === 0 ? "" : `  NOT 200: ${JSON.stringify(Object.fromEntries(m.refused))}`)
  )
  stepsRow()
}

try {
  await waitFor(service, async (answer) => ((await answer.json()) as { status: string }).status === "ok")
  const offer = await offers()
  await paced()
  console.log(
    `   paid quote USDC→WETH 250 and paid search, p50 / p99; a block every ${BLOCK_TIME} s (evm_mine, one at a` +
      ` time), anvil keeping ${KEPT_STATES} states; broadcast`
  )
  row("devnet market", await minute(offer, LOAD_SEC, 60 - LOAD_SEC))
  const t0 = performance.now()
  await automined()
  const market = await devnetMarket(devnet.manifest, POOLS)
  const last = await market.build(0, POOLS)
  const built = performance.now()
  await paced()
  await indexedPast(last)
  console.log(
    `   grew by ${POOLS} pools in ${((built - t0) / 1000).toFixed(0)} s (automine), all indexed live after` +
      ` ${((performance.now() - t0) / 1000).toFixed(0)} s; then ${BLOCK_TIME} s blocks again`
  )
  spans?.take()
  for (let m = 1; m <= MINUTES; m++) row(`minute ${m}`, await minute(offer, LOAD_SEC, 60 - LOAD_SEC))
} finally {
  clearInterval(pace)
  await mining
  await stop(service)
  await spans?.close()
  await devnet.stop()
  rmSync(work, { recursive: true, force: true })
}
