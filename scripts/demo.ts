/**
 * `npm run demo`: a trading agent written the way its users write one, against a running `npm start`.
 * It knows only the service's URL and a wallet: an unmodified `@x402/fetch` pays whatever the service
 * asks, within what the agent allows (the chain's USDC, at most `DEMO_MAX_PAYMENT` base units per
 * payment). The wallet is the first account of the devnet manifest `npm start` wrote.
 *
 * Settings: `DEMO_URL` (default `http://127.0.0.1:$PORT`, port 8402), `MANIFEST_PATH` (default
 * `.devnet/manifest.json`), `DEMO_MAX_PAYMENT` (default 50000, 0.05 USDC).
 */
import { decodePaymentRequiredHeader, decodePaymentSignatureHeader } from "@x402/core/http"
import { ExactEvmScheme } from "@x402/evm/exact/client"
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from "@x402/fetch"
import { readFileSync } from "node:fs"
import { type Address, createPublicClient, erc20Abi, formatUnits, type Hex, http } from "viem"
import { privateKeyToAccount } from "viem/accounts"

const baseUrl = process.env["DEMO_URL"] ?? `http://127.0.0.1:${process.env["PORT"] ?? "8402"}`
const manifestPath = process.env["MANIFEST_PATH"] ?? ".devnet/manifest.json"
const maxPayment = process.env["DEMO_MAX_PAYMENT"] ?? "50000"

// The chain's USDC (ERC-20 face of the native gas token); @x402/evm does not know it by default.
const USDC: Address = "0x3600000000000000000000000000000000000000"
const NETWORK = "eip155:5042"

const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as {
  readonly rpcUrl: string
  readonly accounts: ReadonlyArray<{ readonly privateKey: Hex }>
}
const account = privateKeyToAccount(manifest.accounts[0]!.privateKey)
const chain = createPublicClient({ transport: http(manifest.rpcUrl) })

// The agent notes each payment it signs (the `PAYMENT-SIGNATURE` @x402/fetch sends) to report it.
let signed: string | null = null
const noting: typeof fetch = (input, init) => {
  const request = new Request(input, init)
  signed = request.headers.get("payment-signature") ?? signed
  return fetch(request)
}

const agentFetch = wrapFetchWithPayment(
  noting,
  x402Client.fromConfig({
    schemes: [{ network: NETWORK, client: new ExactEvmScheme(account) }],
    spendControls: { allowedAssets: [{ network: NETWORK, asset: USDC, maxAmountPerPayment: maxPayment }] }
  })
)

const usdc = (units: bigint) => `${formatUnits(units, 6)} USDC`
const balanceOf = (owner: Address) =>
  chain.readContract({ address: USDC, abi: erc20Abi, functionName: "balanceOf", args: [owner] })

let paidInTotal = 0n

/** One paid call: what it answered, what it paid and the settlement transaction. */
const paidCall = async (step: string, path: string, body: unknown) => {
  signed = null
  const response = await agentFetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  const answer = await response.json() as Record<string, any>
  const receiptHeader = response.headers.get("payment-response")
  if (!response.ok) {
    console.log(`${step}: ${response.status} ${answer["error"]?.["code"] ?? ""}, next ${answer["next"]}`)
    throw new Error(`${path} answered ${response.status}: ${JSON.stringify(answer).slice(0, 300)}`)
  }
  if (receiptHeader === null) throw new Error(`${path} answered without PAYMENT-RESPONSE`)
  const receipt = decodePaymentResponseHeader(receiptHeader)
  const mined = await chain.getTransactionReceipt({ hash: receipt.transaction as Hex })
  const value = signed === null ? 0n : BigInt(decodePaymentSignatureHeader(signed).accepted.amount)
  paidInTotal += value
  console.log(
    `${step}: 200, paid ${usdc(value)} (settled in ${receipt.transaction}, block ${mined.blockNumber}, ${mined.status})`
  )
  return answer
}

const main = async () => {
  console.log(
    `agent ${account.address} -> ${baseUrl} (pays USDC on ${NETWORK}, at most ${usdc(BigInt(maxPayment))} a call)`
  )

  // What a call costs is in the 402 the service answers before any payment: the agent learns the fee recipient.
  const probe = await fetch(`${baseUrl}/trade/v1/search`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "WETH" })
  })
  const offer = decodePaymentRequiredHeader(probe.headers.get("payment-required") ?? "")
  const terms = offer.accepts[0]!
  const payTo = terms.payTo as Address
  console.log(`0. search without paying: ${probe.status}, asks ${usdc(BigInt(terms.amount))} to ${payTo}`)

  const before = { agent: await balanceOf(account.address), payTo: await balanceOf(payTo) }
  console.log(`   balances before: agent ${usdc(before.agent)}, fee recipient ${usdc(before.payTo)}`)

  const found = await paidCall("1. search WETH", "/trade/v1/search", { query: "WETH", limit: 3 })
  const token = found["results"][0]
  console.log(`   -> ${token.symbol} ${token.address} (${token.verification?.status ?? "unverified"})`)

  const document = await (await fetch(`${baseUrl}/openapi.json`)).json() as { paths: Record<string, unknown> }
  if ("/trade/v1/quote" in document.paths) {
    const quote = await paidCall("2. quote 10 USDC -> WETH", "/trade/v1/quote", {
      sell: USDC,
      buy: token.address,
      amount: "10",
      taker: account.address
    })
    console.log(
      `   -> ${quote["quoteId"]}: ${quote["best"]?.["amountOutQuoted"]} ${token.symbol} via ${
        quote["best"]?.["type"]
      }, ` +
        `safety ${quote["safety"]?.["verdict"]}, next ${quote["next"]}`
    )
  } else {
    console.log("2. quote: this service does not list /trade/v1/quote yet (skipped)")
  }
  console.log(
    "   swap, permit signing, swap/tx, sending the transactions and receipt come with the execution issue: " +
      "not run here"
  )

  const after = { agent: await balanceOf(account.address), payTo: await balanceOf(payTo) }
  console.log(`   balances after:  agent ${usdc(after.agent)}, fee recipient ${usdc(after.payTo)}`)
  console.log(
    `   paid ${usdc(paidInTotal)} in all; agent ${usdc(after.agent - before.agent)}, ` +
      `fee recipient +${usdc(after.payTo - before.payTo)}`
  )
}

main().catch((error: unknown) => {
  console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
