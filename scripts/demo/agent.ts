/**
 * The demo agent's side of the HTTP API: an unmodified `@x402/fetch` that pays whatever the service
 * asks within what the agent allows (the chain's USDC, at most `maxPayment` base units a payment), and
 * reads what each call cost from its `PAYMENT-RESPONSE`: the settlement transaction, whose USDC
 * transfer from the agent is the amount actually paid (the header's `amount` is optional in x402).
 */
import { ExactEvmScheme } from "@x402/evm/exact/client"
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from "@x402/fetch"
import { type Address, erc20Abi, type Hex, isAddressEqual, parseEventLogs } from "viem"
import type { Wallet } from "./wallet.js"

/** The chain's USDC (ERC-20 face of the native gas token); @x402/evm does not know it by default. */
export const USDC: Address = "0x3600000000000000000000000000000000000000"
export const NETWORK = "eip155:5042"

export interface Answer {
  readonly status: number
  readonly body: Record<string, any>
  /** USDC base units this call paid; 0 for a free call. */
  readonly paid: bigint
  readonly settlement: Hex | null
}

export const agentFor = (baseUrl: string, wallet: Wallet, maxPayment: string) => {
  const payingFetch = wrapFetchWithPayment(
    fetch,
    x402Client.fromConfig({
      schemes: [{ network: NETWORK, client: new ExactEvmScheme(wallet.account) }],
      spendControls: { allowedAssets: [{ network: NETWORK, asset: USDC, maxAmountPerPayment: maxPayment }] }
    })
  )

  const paidIn = async (settlement: Hex) => {
    const mined = await wallet.mined(settlement)
    if (mined.status !== "success") throw new Error(`settlement ${settlement} reverted`)
    return parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: mined.logs })
      .filter((log) => isAddressEqual(log.address, USDC) && isAddressEqual(log.args.from, wallet.account.address))
      .reduce((sum, log) => sum + log.args.value, 0n)
  }

  /** POSTs `body`; pays when asked. Answers errors too: the caller decides from `next`. */
  const post = async (path: string, body: unknown): Promise<Answer> => {
    const response = await payingFetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body)
    })
    const answer = await response.json() as Record<string, any>
    const header = response.headers.get("payment-response")
    if (header === null) return { status: response.status, body: answer, paid: 0n, settlement: null }
    const settled = decodePaymentResponseHeader(header)
    const settlement = settled.transaction as Hex
    return { status: response.status, body: answer, paid: await paidIn(settlement), settlement }
  }

  /** Waits until the service's index has applied `block`: quotes read wallets at the index's block. */
  const indexed = async (block: bigint) => {
    for (let attempt = 0; attempt < 600; attempt++) {
      const health = await (await fetch(`${baseUrl}/health`)).json() as { indexedBlock?: number | null }
      if (health.indexedBlock !== undefined && health.indexedBlock !== null && BigInt(health.indexedBlock) >= block) {
        return
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    throw new Error(`the service's index did not reach block ${block} in 30 s`)
  }

  return { post, indexed }
}

export type Agent = ReturnType<typeof agentFor>
