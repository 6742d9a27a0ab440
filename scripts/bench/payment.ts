/**
 * What a payment adds to a paid call: the gate's verify (decode, checks, authorization claim, the
 * facilitator's signature check and transfer simulation) and settle (`transferWithAuthorization` sent
 * and its receipt awaited), with the in-process facilitator on a private devnet. Measured on an
 * automining chain (the floor: RPC round trips only) and with 0.5 s blocks like Arc (settlement then
 * waits for inclusion). Payers sign with the public x402 client; signing is the payer's time and is
 * not counted.
 */
import { x402Client } from "@x402/core/client"
import { encodePaymentSignatureHeader } from "@x402/core/http"
import type { PaymentRequired as LibraryOffer } from "@x402/core/types"
import { ExactEvmScheme } from "@x402/evm/exact/client"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Hex } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { Devnet, devnetDefaults } from "../../devnet/Devnet.js"
import { AppConfig } from "../../layers/AppConfig.js"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { type Charge, PaymentGate, SubmittedPayment } from "../../layers/PaymentGate.js"
import { figure, latency, ms } from "./lib/report.js"

const work = mkdtempSync(join(tmpdir(), "bench-payment-"))
const charge: Charge = { price: 5_000n, resource: { url: "http://bench/trade/v1/search", description: "search" } }

const stack = (blockTime: Option.Option<number>) =>
  PaymentGate.Default.pipe(
    Layer.provide(ChainRpc.Default),
    Layer.provideMerge(Devnet.layerWithDeployment({
      ...devnetDefaults,
      port: 0,
      verbose: false,
      blockTime,
      manifestPath: join(work, `manifest-${Option.getOrElse(blockTime, () => 0)}.json`)
    })),
    Layer.provide(AppConfig.Default)
  )

const run = async (label: string, blockTime: Option.Option<number>, calls: number) => {
  const runtime = ManagedRuntime.make(stack(blockTime))
  try {
    const { gate, manifest } = await runtime.runPromise(
      Effect.all({ gate: PaymentGate, manifest: Effect.map(Devnet, (devnet) => devnet.manifest) })
    )
    const payers = manifest.accounts.slice(0, 4).map((entry) => privateKeyToAccount(entry.privateKey as Hex))
    const offer = gate.offer(charge) as unknown as LibraryOffer
    const network = gate.terms.network
    const sign = (i: number) =>
      x402Client.fromConfig({
        schemes: [{ network, client: new ExactEvmScheme(payers[i % payers.length]!) }],
        spendControls: { allowedAssets: [{ network, asset: gate.terms.asset, maxAmountPerPayment: "5000000" }] }
      }).createPaymentPayload(offer).then(encodePaymentSignatureHeader)

    const verify: Array<number> = []
    const settle: Array<number> = []
    const total: Array<number> = []
    for (let i = 0; i < calls + 3; i++) {
      const header = await sign(i)
      const started = performance.now()
      const verified = await runtime.runPromise(gate.verify(charge, SubmittedPayment.header(header)))
      const checked = performance.now()
      await runtime.runPromise(gate.settle(verified))
      const done = performance.now()
      // The first calls warm connections and caches.
      if (i < 3) continue
      verify.push(checked - started)
      settle.push(done - checked)
      total.push(done - started)
    }
    latency(`${label}: verify`, verify)
    latency(`${label}: settle (sent + receipt)`, settle)
    latency(`${label}: verify + settle`, total)

    // Concurrent calls from distinct authorizations: broadcasts share one settlement key.
    const burst = 20
    const headers = await Promise.all(Array.from({ length: burst }, (_, i) => sign(i)))
    const started = performance.now()
    await Promise.all(
      headers.map((header) =>
        runtime.runPromise(gate.charge(charge, Option.some(SubmittedPayment.header(header)), Effect.void))
      )
    )
    const elapsed = performance.now() - started
    figure(
      `${label}: ${burst} concurrent paid calls`,
      `${ms(elapsed)} (${(burst / (elapsed / 1000)).toFixed(1)} calls/s)`
    )
  } finally {
    await runtime.dispose()
  }
}

await run("automine", Option.none(), 100)
await run("0.5 s blocks", Option.some(0.5), 30)
rmSync(work, { recursive: true, force: true })
