/**
 * One private devnet and one gate for a payment test file, with a manifest account as the payer and a
 * fresh fee recipient nobody else pays: calls through the gate, real signatures, balance deltas.
 */
import type { PaymentRequired as LibraryOffer } from "@x402/core/types"
import { Effect, ManagedRuntime, Option } from "effect"
import type { PrivateKeyAccount } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll } from "vitest"
import type { DevnetOptions } from "../../devnet/DevnetConfig.js"
import { type Charge, PaymentGate, SubmittedPayment } from "../../layers/PaymentGate.js"
import type { InsufficientLiquidity } from "../../schema/Errors.js"
import { manifestAccount, type PrivateDevnet, startDevnet } from "../support/devnet.js"
import { walletFor } from "../support/wallet.js"
import { gateLayer, pay, USDC } from "../support/x402.js"

export const search: Charge = {
  price: 5_000n,
  resource: { url: "http://service.test/trade/v1/search", description: "search" }
}

/** `settings` over the gate's defaults (`SETTLEMENT_MODE: "broadcast"`, say); `devnet` for its chain. */
export const gateHarness = (
  payerIndex: number,
  settings: Readonly<Record<string, string>> = {},
  devnetOptions: Partial<DevnetOptions> = {}
) => {
  let devnet: PrivateDevnet
  let runtime: ManagedRuntime.ManagedRuntime<PaymentGate, unknown>
  let payer: PrivateKeyAccount
  const payTo = privateKeyToAccount(generatePrivateKey()).address

  beforeAll(async () => {
    devnet = await startDevnet(devnetOptions)
    payer = manifestAccount(devnet.manifest, payerIndex)
    runtime = ManagedRuntime.make(gateLayer(devnet.manifest, { PAY_TO: payTo, ...settings }))
  })
  afterAll(async () => {
    await runtime?.dispose()
    await devnet?.stop()
  })

  const gate = <A, E>(use: (gate: PaymentGate["Type"]) => Effect.Effect<A, E>) =>
    runtime.runPromise(Effect.flatMap(PaymentGate, use))
  const offerOf = (charge: Charge) => gate((g) => Effect.succeed(g.offer(charge)))

  return {
    payTo,
    manifest: () => devnet.manifest,
    payer: () => payer,
    gate,
    offerOf,
    signFor: async (charge: Charge, account = payer) =>
      pay(account, (await offerOf(charge)) as unknown as LibraryOffer),
    /** Runs `charge` with the header and `operation`; answers the outcome as an Either. */
    call: (
      charge: Charge,
      header: string | undefined,
      operation: Effect.Effect<string, InsufficientLiquidity> = Effect.succeed("answer")
    ) =>
      gate((g) =>
        Effect.either(g.charge(charge, Option.map(Option.fromNullable(header), SubmittedPayment.header), operation))
      ),
    /** USDC balance changes of the payer and the fee recipient across `action`. */
    balances: (action: () => Promise<unknown>) =>
      walletFor(devnet.manifest, payer).deltas(USDC, [payer.address, payTo], action)
  }
}
