/**
 * What one in-process verify asks of the node. The exact scheme checks an EOA's signature by local
 * recovery once `eth_getCode` says the payer has no code, and simulates `transferWithAuthorization` at
 * the head; the payer's code is read once per verify, not once per library step. `broadcast`'s verify
 * asks one `eth_call` (codes, coverage and the simulated transfer together), and hands a payer with code
 * to the library. The RPC calls are counted through a wrapping transport or a counting proxy on the real
 * devnet (no mock: every answer is the node's).
 */
import { describe, expect, it } from "@effect/vitest"
import { InMemoryPendingSettlementStore } from "@x402/core/facilitator"
import type { PaymentRequired as LibraryOffer } from "@x402/core/types"
import { Effect } from "effect"
import { createWalletClient, custom, http } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { inProcessFacilitator } from "../../layers/payment/Facilitator.js"
import { quickVerify } from "../../layers/payment/QuickVerify.js"
import { settlementSigner } from "../../layers/payment/SettlementSigner.js"
import type { PaymentPayload, PaymentRequirements } from "../../schema/Payment.js"
import { chainOf, clientsFor } from "../support/devnet.js"
import { startRpcCounter } from "../support/rpcCounter.js"
import { walletFor } from "../support/wallet.js"
import { encodePayment, pay, USDC } from "../support/x402.js"
import { gateHarness, search } from "./harness.js"

const harness = gateHarness(3)

/** An in-process facilitator on the devnet whose every RPC request is recorded as `method address`. */
const countingFacilitator = () => {
  const seen: Array<string> = []
  const chain = chainOf(harness.manifest())
  const node = http(harness.manifest().rpcUrl)({ chain, retryCount: 0 })
  const transport = custom({
    request: ({ method, params }: { method: string; params: ReadonlyArray<{ to?: string } | string> }) => {
      const first = params[0]
      seen.push(`${method} ${typeof first === "string" ? first.toLowerCase() : (first?.to ?? "").toLowerCase()}`)
      return node.request({ method, params })
    }
  })
  const account = privateKeyToAccount(generatePrivateKey())
  const wallet = createWalletClient({ account, chain, transport })
  const signer = settlementSigner(wallet, account, { receiptPollMs: 50, receiptTimeoutMs: 5_000, asset: USDC })
  const network: PaymentRequirements["network"] = `eip155:${chain.id}`
  const facilitator = inProcessFacilitator(signer, network, new InMemoryPendingSettlementStore())
  const verify = (payload: Awaited<ReturnType<typeof pay>>["payload"]) => {
    seen.length = 0
    return Effect.runPromise(
      facilitator.verify(payload as unknown as PaymentPayload, payload.accepted as unknown as PaymentRequirements)
    )
  }
  return { seen, verify, facilitator }
}

// Runtime code answering ERC-1271's magic value to any call: a wallet that accepts every signature.
const ACCEPTS_ANY_SIGNATURE = "0x631626ba7e60e01b60005260206000f3"

describe("in-process verify, on the node", () => {
  it("verifies an EOA payment reading the payer's code once and simulating the transfer once", async () => {
    const { seen, verify } = countingFacilitator()
    const { payload } = await harness.signFor(search)
    const verdict = await verify(payload)
    expect(verdict).toMatchObject({ isValid: true, payer: harness.payer().address })
    const payer = harness.payer().address.toLowerCase()
    expect(seen.filter((call) => call === `eth_getCode ${payer}`)).toHaveLength(1)
    expect(seen.filter((call) => call.startsWith("eth_call "))).toHaveLength(1)
  })

  it("refuses a signature by another key over the payer's authorization, as before", async () => {
    const { payload } = await harness.signFor(search)
    const forged = await pay(
      privateKeyToAccount(generatePrivateKey()),
      (await harness.offerOf(search)) as unknown as LibraryOffer
    )
    const { signature } = forged.payload.payload as { signature: string }
    const tampered = { ...payload, payload: { ...payload.payload, signature } }
    const { verify } = countingFacilitator()
    expect(await verify(tampered)).toMatchObject({ isValid: false, invalidReason: "invalid_exact_evm_signature" })
    const outcome = await harness.call(search, encodePayment(tampered))
    expect(outcome).toMatchObject({ _tag: "Left", left: { reason: "invalid_exact_evm_payload_signature" } })
  })
})

describe("broadcast's verify, on the node", () => {
  it("asks one eth_call for an EOA, and leaves a payer with code to the library", async () => {
    const methods: Array<string> = []
    const proxy = await startRpcCounter(harness.manifest().rpcUrl, (call) => void methods.push(call.method))
    try {
      const library = countingFacilitator()
      const verify = quickVerify(
        ChainRpc.make({ rpcUrl: proxy.url, chainId: harness.manifest().chainId }),
        library.facilitator
      )
      const verdictFor = async (payload: Awaited<ReturnType<typeof pay>>["payload"]) => {
        methods.length = 0
        library.seen.length = 0
        const requirements = payload.accepted as unknown as PaymentRequirements
        return Effect.runPromise(verify(payload as unknown as PaymentPayload, requirements, []))
      }

      const eoa = await harness.signFor(search)
      expect(await verdictFor(eoa.payload)).toEqual({ isValid: true, payer: harness.payer().address })
      expect(methods).toEqual(["eth_call"])
      expect(library.seen).toEqual([])

      // The same simulation succeeds for this wallet (its code accepts any signature); its code alone
      // sends it to the library's verify, which reads that code itself.
      const wallet = privateKeyToAccount(generatePrivateKey())
      await walletFor(harness.manifest(), harness.payer()).transfer(USDC, wallet.address, 100_000n)
      await clientsFor(harness.manifest()).test.setCode({ address: wallet.address, bytecode: ACCEPTS_ANY_SIGNATURE })
      const smart = await harness.signFor(search, wallet)
      await verdictFor(smart.payload)
      expect(methods).toEqual(["eth_call"])
      expect(library.seen).toContain(`eth_getCode ${wallet.address.toLowerCase()}`)
    } finally {
      await proxy.close()
    }
  })
})
