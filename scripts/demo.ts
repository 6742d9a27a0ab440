/**
 * `npm run demo`: a trading agent written on the package's client (`trade-checkpoint/client`), against a
 * running `npm start`. It knows only the service's URL and a wallet (the first account of the devnet
 * manifest `npm start` wrote); the client pays with x402 within the budget the agent sets (at most
 * `DEMO_MAX_PAYMENT` base units a call) and runs each trade: quote, policy, swap, permit, send, receipt.
 *
 * The flow: search WETH, buy some with USDC, then sell half of it back through the Permit2 flow. Each step
 * prints what it paid; the balances are printed before and after, and the total paid must be what the fee
 * recipient received.
 *
 * Settings: `DEMO_URL` (default `http://127.0.0.1:$PORT`, port 8402), `MANIFEST_PATH` (default
 * `.devnet/manifest.json`), `DEMO_MAX_PAYMENT` (default 50000, 0.05 USDC).
 */
import { decodePaymentRequiredHeader } from "@x402/core/http"
import { type Address, formatUnits } from "viem"
import { TradeClient, type TradeStep } from "../src/client/index.js"
import { walletFrom } from "./demo/wallet.js"

const baseUrl = process.env["DEMO_URL"] ?? `http://127.0.0.1:${process.env["PORT"] ?? "8402"}`
const maxPayment = BigInt(process.env["DEMO_MAX_PAYMENT"] ?? "50000")
const USDC: Address = "0x3600000000000000000000000000000000000000"
const wallet = walletFrom(process.env["MANIFEST_PATH"] ?? ".devnet/manifest.json")
const me = wallet.account.address
const client = new TradeClient({
  baseUrl,
  payer: wallet.account,
  budget: { perCall: maxPayment, perSession: 1_000_000n }
})

const usdc = (units: bigint) => `${formatUnits(units, 6)} USDC`
const native = (wei: bigint) => `${formatUnits(wei / 10n ** 12n, 6)} native USDC`
const short = (hash: string) => `${hash.slice(0, 10)}…${hash.slice(-8)}`
const cost = (paid: bigint, settlement?: string) =>
  settlement === undefined ? "free" : `paid ${usdc(paid)} (settled in ${short(settlement)})`
let step = 0
const line = (text: string) => console.log(`${++step}. ${text}`)

/** Prints each step of a trade as the client reports it, in the words the demo always used. */
const show = (label: string) => {
  let out = { decimals: 18, symbol: "" }
  const amount = (raw: string) => `${formatUnits(BigInt(raw), out.decimals)}`
  return (event: TradeStep) => {
    if (event.step === "quote") {
      out = event.quote.buy
      const { best, buy, next, quoteId, readiness, safety } = event.quote
      line(`quote ${label}: 200, ${cost(event.paid, event.settlement)}`)
      console.log(
        `   -> ${quoteId}: ${best.amountOutQuoted} ${buy.symbol} via ${best.type}, safety ${
          safety?.verdict ?? "not measured"
        }, approval ${readiness?.approval.needs}, next ${next}`
      )
    } else if (event.step === "requote") {
      console.log(`   -> ${event.code}: trading the replacement quote ${event.quote.quoteId}`)
    } else if (event.step === "swap") {
      line(`swap: 200, ${cost(event.paid, event.settlement)}`)
      const { amountOutSimulated, minAmountOut, next, transactions } = event.swap
      console.log(
        `   -> ${transactions.map((tx) => tx.purpose).join(" + ")}; simulated ${
          amount(amountOutSimulated)
        } ${out.symbol}, ` +
          `min ${amount(minAmountOut)}, next ${next ?? "send"}`
      )
    } else if (event.step === "permit") {
      const { message, primaryType } = event.typedData
      line(
        `sign ${primaryType}: ${message.details.amount} base units of ${message.details.token} for ${message.spender}, signature ${
          short(event.signature)
        }`
      )
    } else if (event.step === "swap_tx") {
      line("swap/tx: 200, free")
      console.log(`   -> ${event.swap.transactions.map((tx) => tx.purpose).join(" + ")}`)
    } else if (event.step === "sent") {
      const { blockNumber, gasUsed, hash, status } = event.sent
      line(
        `send ${event.purpose}: ${status} in block ${blockNumber}, gas used ${gasUsed} of ${event.gas} (${short(hash)})`
      )
    } else if (event.step === "receipt") {
      const { block, delivered, minAmountOut, recipient, result } = event.receipt
      line("receipt: 200, free")
      console.log(
        `   -> ${result}: delivered ${amount(delivered)} ${out.symbol} (min ${amount(minAmountOut)}) to ${recipient} ` +
          `in block ${block}`
      )
    } else console.log(`   stopped: ${event.reason}`)
  }
}

const trade = async (sell: Address, buy: Address, amount: string, label: string) => {
  const result = await client.trade({
    sell,
    buy,
    amount,
    wallet: wallet.trading,
    onStep: show(label)
  })
  if (result.outcome !== "pass") throw new Error(`the trade ended ${result.outcome}: ${result.reason}`)
  return result.delivered
}

const balances = async (payTo: Address, weth: Address) => ({
  usdc: await wallet.balanceOf(USDC),
  native: await wallet.nativeBalance(),
  weth: await wallet.balanceOf(weth),
  payTo: await wallet.balanceOf(USDC, payTo)
})
const showBalances = (when: string, b: Awaited<ReturnType<typeof balances>>) =>
  console.log(
    `   balances ${when}: agent ${usdc(b.usdc)}, ${native(b.native)}, ${formatUnits(b.weth, 18)} WETH; ` +
      `fee recipient ${usdc(b.payTo)}`
  )

const main = async () => {
  console.log(`agent ${me} -> ${baseUrl} (pays USDC on eip155:5042, at most ${usdc(maxPayment)} a call)`)
  // What a call costs is in the 402 the service answers before any payment: the agent learns the fee recipient.
  const probe = await fetch(`${baseUrl}/trade/v1/search`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "WETH" })
  })
  const terms = decodePaymentRequiredHeader(probe.headers.get("payment-required") ?? "").accepts[0]!
  const payTo = terms.payTo as Address
  console.log(`0. search without paying: ${probe.status}, asks ${usdc(BigInt(terms.amount))} to ${payTo}`)
  // Devnet only: the fees are paid in ERC-20 USDC, which the devnet mints from native value (see wallet.ts).
  if (await wallet.balanceOf(USDC) < 1_000_000n) {
    await client.untilIndexed((await wallet.depositUsdc(USDC, 5n)).blockNumber)
    console.log(`   deposited 5 native USDC into ERC-20 USDC for the fees (devnet only)`)
  }

  const usdcBefore = await balances(payTo, USDC)
  const found = await client.search({ query: "WETH", limit: 3 })
  line(`search WETH: 200, ${cost(found.paid, found.settlement)}`)
  const token = found.value.results[0]!
  console.log(`   -> ${token.symbol} ${token.address} (${token.verification.status})`)
  const weth = token.address as Address
  const before = { ...usdcBefore, weth: await wallet.balanceOf(weth) }
  showBalances("before step 1", before)

  const bought = await trade(USDC, weth, "25", "25 USDC -> WETH")
  const sellBack = formatUnits(bought / 2n, 18)
  await trade(weth, USDC, sellBack, `${sellBack} WETH -> USDC`)

  const after = await balances(payTo, weth)
  showBalances("after", after)
  const signed = (text: string) => (text.startsWith("-") ? text : `+${text}`)
  console.log(
    `   change: agent ${signed(usdc(after.usdc - before.usdc))}, ${signed(native(after.native - before.native))}, ` +
      `${signed(formatUnits(after.weth - before.weth, 18))} WETH (gas included)`
  )
  const rise = after.payTo - before.payTo
  console.log(
    `   paid ${usdc(client.spent())} in all; fee recipient +${usdc(rise)}: ${
      rise === client.spent() ? "equal" : "NOT EQUAL"
    }`
  )
  if (rise !== client.spent()) process.exitCode = 1
}

main().catch((error: unknown) => {
  console.error(`stopped: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
