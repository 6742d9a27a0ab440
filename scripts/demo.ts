/**
 * `npm run demo`: a trading agent written the way its users write one, against a running `npm start`.
 * It knows only the service's URL and a wallet: an unmodified `@x402/fetch` pays whatever the service
 * asks, within what the agent allows (the chain's USDC, at most `DEMO_MAX_PAYMENT` base units per
 * payment). The wallet is the first account of the devnet manifest `npm start` wrote.
 *
 * The whole flow: search WETH, buy some with USDC (quote, paid swap, send, receipt), then sell half of it
 * back through the Permit2 flow (quote, swap answering `next: sign_permit`, sign the typed data,
 * `swap/tx`, send, receipt). Each step prints what it paid; the balances are printed before and after,
 * and the total paid must be what the fee recipient received.
 *
 * Settings: `DEMO_URL` (default `http://127.0.0.1:$PORT`, port 8402), `MANIFEST_PATH` (default
 * `.devnet/manifest.json`), `DEMO_MAX_PAYMENT` (default 50000, 0.05 USDC).
 */
import { decodePaymentRequiredHeader } from "@x402/core/http"
import { type Address, formatUnits, type Hex } from "viem"
import { type Agent, agentFor, NETWORK, USDC } from "./demo/agent.js"
import { type UnsignedTransaction, type Wallet, walletFrom } from "./demo/wallet.js"

const baseUrl = process.env["DEMO_URL"] ?? `http://127.0.0.1:${process.env["PORT"] ?? "8402"}`
const manifestPath = process.env["MANIFEST_PATH"] ?? ".devnet/manifest.json"
const maxPayment = process.env["DEMO_MAX_PAYMENT"] ?? "50000"
const BUY_WITH_USDC = "25"

const wallet: Wallet = walletFrom(manifestPath)
const agent: Agent = agentFor(baseUrl, wallet, maxPayment)
const me = wallet.account.address

/** Thrown when the service says not to go on (`next: stop`, or an answer the agent cannot act on). */
class Stop extends Error {}

const usdc = (units: bigint) => `${formatUnits(units, 6)} USDC`
/** Native USDC has 18 decimals; six are enough to read. */
const native = (wei: bigint) => `${formatUnits(wei / 10n ** 12n, 6)} native USDC`
const short = (hash: string) => `${hash.slice(0, 10)}…${hash.slice(-8)}`
const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000))

let step = 0
let paidInTotal = 0n

/** One call: prints its status and what it paid; an error answer stops the agent unless `allow` takes it. */
const call = async (label: string, path: string, body: unknown, allow: (status: number) => boolean = () => false) => {
  const answer = await agent.post(path, body)
  paidInTotal += answer.paid
  const cost = answer.settlement === null
    ? "free"
    : `paid ${usdc(answer.paid)} (settled in ${short(answer.settlement)})`
  console.log(`${++step}. ${label}: ${answer.status}, ${cost}`)
  if (answer.status !== 200 && !allow(answer.status)) {
    const error = answer.body["error"] ?? {}
    throw new Stop(`${error.code}: ${error.message} (next: ${answer.body["next"]})`)
  }
  return answer
}

const balances = async (payTo: Address, weth: Address) => ({
  usdc: await wallet.balanceOf(USDC),
  native: await wallet.nativeBalance(),
  weth: await wallet.balanceOf(weth),
  payTo: await wallet.balanceOf(USDC, payTo)
})
type Balances = Awaited<ReturnType<typeof balances>>

const showBalances = (when: string, b: Balances) =>
  console.log(
    `   balances ${when}: agent ${usdc(b.usdc)}, ${native(b.native)}, ${formatUnits(b.weth, 18)} WETH; ` +
      `fee recipient ${usdc(b.payTo)}`
  )

/** Sends a swap answer's transactions in order as returned; never a placeholder. Returns their hashes. */
const sendAll = async (transactions: ReadonlyArray<UnsignedTransaction>) => {
  const hashes: Array<Hex> = []
  let last = 0n
  for (const tx of transactions) {
    if (tx.purpose === "swap_placeholder") throw new Stop("a swap_placeholder is never sent")
    const mined = await wallet.send(tx)
    console.log(
      `${++step}. send ${tx.purpose}: ${mined.status} in block ${mined.blockNumber}, ` +
        `gas used ${mined.gasUsed} of ${tx.gas} (${short(mined.transactionHash)})`
    )
    if (mined.status !== "success") throw new Stop(`the ${tx.purpose} transaction reverted`)
    hashes.push(mined.transactionHash)
    last = mined.blockNumber
  }
  // The next quote reads this wallet at the index's block: it must have seen these transactions.
  await agent.indexed(last)
  return hashes
}

/** Asks `receipt` until it is final: `pending` waits the time it names, `fail` stops. */
const receiptOf = async (quoteId: string, txHashes: ReadonlyArray<Hex>, decimals: number, symbol: string) => {
  for (let attempt = 0; attempt < 10; attempt++) {
    const { body } = await call("receipt", "/trade/v1/receipt", { quoteId, txHashes }, (status) => status === 429)
    if (body["result"] === "pass") {
      console.log(
        `   -> pass: delivered ${formatUnits(BigInt(body["delivered"]), decimals)} ${symbol} ` +
          `(min ${formatUnits(BigInt(body["minAmountOut"]), decimals)}) to ${body["recipient"]} in block ${
            body["block"]
          }`
      )
      return BigInt(body["delivered"])
    }
    if (body["result"] === "fail") throw new Stop(`receipt fail: ${body["reason"]} (next: ${body["next"]})`)
    const wait = Number(body["retryAfterSec"] ?? 5)
    console.log(`   -> ${body["result"] ?? body["error"]?.["code"]}: asking again in ${wait} s`)
    await sleep(wait)
  }
  throw new Stop("the receipt stayed pending")
}

/** A swap answer, taking the one free replacement quote a stale or expired quote answers with. */
const swapFor = async (quoteId: string) => {
  const answer = await call(
    "swap",
    "/trade/v1/swap",
    { quoteId, taker: me },
    (status) => status === 409 || status === 410
  )
  const replacement = answer.body["quote"]?.["quoteId"]
  if (answer.status === 200) return { quoteId, built: answer.body }
  if (answer.body["next"] !== "requote" || typeof replacement !== "string") {
    throw new Stop(`${answer.body["error"]?.["code"]} (next: ${answer.body["next"]})`)
  }
  console.log(`   -> ${answer.body["error"]["code"]}: trading the replacement quote ${replacement}`)
  const again = await call("swap (replacement)", "/trade/v1/swap", { quoteId: replacement, taker: me })
  return { quoteId: replacement as string, built: again.body }
}

/** quote → swap (→ sign the permit → swap/tx) → send → receipt; returns what was delivered. */
const trade = async (sell: Address, buy: Address, amount: string, label: string) => {
  const { body: quote } = await call(`quote ${label}`, "/trade/v1/quote", { sell, buy, amount, taker: me })
  const { buy: out, best } = quote
  console.log(
    `   -> ${quote["quoteId"]}: ${best["amountOutQuoted"]} ${out.symbol} via ${best["type"]}, ` +
      `safety ${quote["safety"]?.["verdict"] ?? "not measured"}, ` +
      `approval ${quote["readiness"]?.["approval"]?.["needs"]}, next ${quote["next"]}`
  )
  if (quote["next"] !== "swap") {
    throw new Stop(
      `the quote says stop: ready ${quote["readiness"]?.["ready"]}, warnings [${quote["warnings"].join(", ")}]`
    )
  }

  const { built, quoteId } = await swapFor(quote["quoteId"])
  const purposes = built["transactions"].map((tx: UnsignedTransaction) => tx.purpose).join(" + ")
  console.log(
    `   -> ${purposes}; simulated ${formatUnits(BigInt(built["amountOutSimulated"]), out.decimals)} ${out.symbol}, ` +
      `min ${formatUnits(BigInt(built["minAmountOut"]), out.decimals)}, next ${built["next"] ?? "send"}`
  )
  let final = built
  if (built["next"] === "sign_permit") {
    const request = built["signatures"][0]
    const signature = await wallet.account.signTypedData(request.typedData)
    const message = request.typedData.message
    console.log(
      `${++step}. sign ${request.typedData.primaryType}: ${message.details.amount} base units of ${message.details.token} ` +
        `for ${message.spender}, signature ${short(signature)}`
    )
    final = (await call("swap/tx", "/trade/v1/swap/tx", { quoteId, taker: me, permit: { message, signature } })).body
    console.log(`   -> ${final["transactions"].map((tx: UnsignedTransaction) => tx.purpose).join(" + ")}`)
  } else if (built["next"] !== undefined) {
    throw new Stop(`swap answered next: ${built["next"]}`)
  }
  if (final["next"] !== undefined) throw new Stop(`swap/tx answered next: ${final["next"]}`)

  const hashes = await sendAll(final["transactions"])
  return receiptOf(quoteId, hashes, out.decimals, out.symbol)
}

const main = async () => {
  console.log(`agent ${me} -> ${baseUrl} (pays USDC on ${NETWORK}, at most ${usdc(BigInt(maxPayment))} a call)`)

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
    const mined = await wallet.depositUsdc(USDC, 5n)
    await agent.indexed(mined.blockNumber)
    console.log(`   deposited 5 native USDC into ERC-20 USDC for the fees (devnet only)`)
  }

  // Read before the first paid call, so every payment shows in the fee recipient's rise.
  const usdcBefore = await balances(payTo, USDC)
  const { body: found } = await call("search WETH", "/trade/v1/search", { query: "WETH", limit: 3 })
  const token = found["results"][0]
  console.log(`   -> ${token.symbol} ${token.address} (${token.verification?.status ?? "unverified"})`)
  const weth = token.address as Address
  // Searching moves no WETH: its balance now is the one from before.
  const before = { ...usdcBefore, weth: await wallet.balanceOf(weth) }
  showBalances("before step 1", before)

  const bought = await trade(USDC, weth, BUY_WITH_USDC, `${BUY_WITH_USDC} USDC -> WETH`)
  const sellBack = formatUnits(bought / 2n, 18)
  await trade(weth, USDC, sellBack, `${sellBack} WETH -> USDC`)

  const after = await balances(payTo, weth)
  showBalances("after", after)
  const rise = after.payTo - before.payTo
  const signed = (text: string) => (text.startsWith("-") ? text : `+${text}`)
  console.log(
    `   change: agent ${signed(usdc(after.usdc - before.usdc))}, ${signed(native(after.native - before.native))}, ` +
      `${signed(formatUnits(after.weth - before.weth, 18))} WETH (gas included)`
  )
  const agrees = rise === paidInTotal ? "equal" : "NOT EQUAL"
  console.log(`   paid ${usdc(paidInTotal)} in all; fee recipient +${usdc(rise)}: ${agrees}`)
  if (rise !== paidInTotal) process.exitCode = 1
}

main().catch((error: unknown) => {
  const stopped = error instanceof Stop
  console.error(`${stopped ? "stopped" : "demo failed"}: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
