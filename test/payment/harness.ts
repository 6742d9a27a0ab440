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
import { type Charge, type ExposureSnapshot, PaymentGate, SubmittedPayment } from "../../layers/PaymentGate.js"
import type { InsufficientLiquidity } from "../../schema/Errors.js"
import { manifestAccount, type PrivateDevnet, startDevnet } from "../support/devnet.js"
import { type RpcCall, type RpcCounter, startRpcCounter } from "../support/rpcCounter.js"
import { walletFor } from "../support/wallet.js"
import { gateLayer, pay, USDC } from "../support/x402.js"

export const search: Charge = {
  price: 5_000n,
  resource: { url: "http://service.test/trade/v1/search", description: "search" }
}

/**
 * `settings` over the gate's defaults (`SETTLEMENT_MODE: "broadcast"`, say); `devnet` for its chain;
 * `delay` puts the gate's JSON-RPC behind a proxy that holds a call until the promise it answers settles.
 */
export const gateHarness = (
  payerIndex: number,
  settings: Readonly<Record<string, string>> = {},
  devnetOptions: Partial<DevnetOptions> = {},
  delay?: (call: RpcCall) => Promise<unknown> | undefined
) => {
  let devnet: PrivateDevnet
  let proxy: RpcCounter | undefined
  let runtime: ManagedRuntime.ManagedRuntime<PaymentGate, unknown>
  let payer: PrivateKeyAccount
  const payTo = privateKeyToAccount(generatePrivateKey()).address

  beforeAll(async () => {
    devnet = await startDevnet(devnetOptions)
    payer = manifestAccount(devnet.manifest, payerIndex)
    proxy = delay === undefined ? undefined : await startRpcCounter(devnet.manifest.rpcUrl, delay)
    runtime = start()
  })
  const start = () => {
    // Behind the proxy, every call goes through it: calls on an answer's path too (a settlement's send),
    // which would otherwise take the node's websocket and pass the proxy by.
    const rpc = proxy === undefined ? {} : { WS_URL: "off" }
    return ManagedRuntime.make(
      gateLayer({ ...devnet.manifest, rpcUrl: proxy?.url ?? devnet.manifest.rpcUrl }, {
        PAY_TO: payTo,
        ...rpc,
        ...settings
      })
    )
  }
  afterAll(async () => {
    await runtime?.dispose()
    await proxy?.close()
    await devnet?.stop()
  })

  /** Runs `use` on the gate; aborting `signal` interrupts it, as a caller hanging up does. */
  const gate = <A, E>(use: (gate: PaymentGate["Type"]) => Effect.Effect<A, E>, signal?: AbortSignal) =>
    runtime.runPromise(Effect.flatMap(PaymentGate, use), { signal })
  const offerOf = (charge: Charge) => gate((g) => Effect.succeed(g.offer(charge)))
  const exposure = () => gate((g): Effect.Effect<ExposureSnapshot> => g.exposure)

  return {
    payTo,
    manifest: () => devnet.manifest,
    payer: () => payer,
    gate,
    offerOf,
    signFor: async (charge: Charge, account = payer) =>
      pay(account, (await offerOf(charge)) as unknown as LibraryOffer),
    /** The manifest's accounts 5 and 6, each with a payment for `charge` signed: two payers in turn. */
    twoPayers: (charge: Charge) => {
      const signed = async (i: number) => {
        const account = manifestAccount(devnet.manifest, i)
        return { account, header: (await pay(account, (await offerOf(charge)) as unknown as LibraryOffer)).header }
      }
      return Promise.all([signed(5), signed(6)])
    },
    /** Runs `charge` with the header and `operation`; answers the outcome as an Either. */
    call: (
      charge: Charge,
      header: string | undefined,
      operation: Effect.Effect<string, InsufficientLiquidity> = Effect.succeed("answer")
    ) =>
      gate((g) =>
        Effect.either(g.charge(charge, Option.map(Option.fromNullable(header), SubmittedPayment.header), operation))
      ),
    /** The gate's charge with `header`, answering the settlement its answer names. */
    paid: (charge: Charge, header: string, signal?: AbortSignal) =>
      gate((g) =>
        Effect.map(
          g.charge(charge, Option.some(SubmittedPayment.header(header)), Effect.succeed("answer")),
          (answer) => Option.getOrThrow(answer.receipt).settlement
        ), signal),
    exposure,
    /** Closes the gate's service, as a stopping process does (its scope closed). */
    close: () => runtime.dispose(),
    /** A new service on the same chain and settings, as a restarted process. */
    restart: () => void (runtime = start()),
    /** Kills the devnet's node. */
    stopNode: () => devnet.stop(),
    /** Waits (bounded) until every served settlement is confirmed. */
    settled: async () => {
      for (let attempt = 0; attempt < 200; attempt++) {
        if ((await exposure()).unconfirmed.count === 0) return
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      throw new Error("settlements stayed unconfirmed")
    },
    /** USDC balance changes of the payer and the fee recipient across `action`. */
    balances: (action: () => Promise<unknown>) =>
      walletFor(devnet.manifest, payer).deltas(USDC, [payer.address, payTo], action)
  }
}
