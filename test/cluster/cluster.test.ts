/**
 * Two replicas behind HAProxy on one Redis and one devnet (./support.ts), as `npm run cluster` runs
 * them: the demo passes through the balancer with its calls spread over both replicas; a quote's
 * lifecycle survives a replica killed mid-trade and a restart of every replica; the paid-once and
 * attempt rules and the payment ledger hold across replicas; a replica told to stop (SIGTERM) finishes
 * a paid call in flight or refuses it uncharged. Calls that must reach one replica go to it directly.
 */
import { decodePaymentRequiredHeader } from "@x402/core/http"
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { type Address, erc20Abi, type Hex } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { describe, expect, it } from "vitest"
import { agentFor } from "../../scripts/demo/agent.js"
import { type UnsignedTransaction, walletFrom } from "../../scripts/demo/wallet.js"
import { clientsFor, tokenAddress } from "../support/devnet.js"
import { pay, USDC } from "../support/x402.js"
import { clusterForFile } from "./support.js"

const fixture = clusterForFile()
const replicaOne = () => fixture.cluster.replicas[0]!
const replicaTwo = () => fixture.cluster.replicas[1]!
const wallet = () => walletFrom(fixture.manifestPath)
const agentOn = (url: string) => agentFor(url, wallet(), "100000")

const feeRecipientUsdc = () =>
  clientsFor(fixture.devnet.manifest).public.readContract({
    address: USDC as Address,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [fixture.payTo]
  })

/** Sends the transactions as returned, in order; the hashes once the replica at `url` indexed them. */
const sendAll = async (url: string, transactions: ReadonlyArray<UnsignedTransaction>) => {
  const hashes: Array<Hex> = []
  let last = 0n
  for (const tx of transactions) {
    const mined = await wallet().send(tx)
    expect(mined.status).toBe("success")
    hashes.push(mined.transactionHash)
    last = mined.blockNumber
  }
  await agentOn(url).indexed(last)
  return hashes
}

const weth = () => tokenAddress(fixture.devnet.manifest, "WETH")
const me = () => wallet().account.address

// Filled by the demo and the killed replica's trade, read by the restart test.
const finished = { quoteId: "", txHashes: [] as ReadonlyArray<Hex> }

describe("a cluster of two replicas on one Redis", () => {
  it("runs the demo through the balancer, its calls spread over both replicas", async () => {
    const servedBefore = await fixture.cluster.served()
    const before = await feeRecipientUsdc()
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/demo.ts"], {
      env: { ...process.env, DEMO_URL: fixture.cluster.baseUrl, MANIFEST_PATH: fixture.manifestPath },
      timeout: 120_000
    })
    expect(stdout).toMatch(/swap\/tx: 200, free/)
    expect(stdout.match(/-> pass: delivered/g)).toHaveLength(2)
    expect(stdout).toMatch(/paid 0\.045 USDC in all; fee recipient \+0\.045 USDC: equal/)
    expect((await feeRecipientUsdc()) - before).toBe(45_000n)
    // Round-robin: of the demo's calls, each replica answered half (one more when the count is odd).
    const servedAfter = await fixture.cluster.served()
    const [one, two] = ["replica-1", "replica-2"].map((name) => servedAfter[name]! - servedBefore[name]!)
    expect(one! + two!).toBeGreaterThan(10)
    expect(Math.abs(one! - two!)).toBeLessThanOrEqual(1)
  }, 150_000)

  it("finishes a permit round on the other replica after the one that opened it was killed", async () => {
    const url = replicaOne().url
    const agent = agentOn(url)
    const quote = await agent.post("/trade/v1/quote", { sell: weth(), buy: USDC, amount: "0.002", taker: me() })
    expect(quote.status).toBe(200)
    const quoteId: string = quote.body["quoteId"]
    const built = await agent.post("/trade/v1/swap", { quoteId, taker: me() })
    expect([built.status, built.body["next"]]).toEqual([200, "sign_permit"])

    await fixture.cluster.stop(replicaOne(), "SIGKILL")
    const request = built.body["signatures"][0]
    const signature = await wallet().account.signTypedData(request.typedData)
    const other = agentOn(replicaTwo().url)
    const final = await other.post("/trade/v1/swap/tx", {
      quoteId,
      taker: me(),
      permit: { message: request.typedData.message, signature }
    })
    expect(final.status).toBe(200)
    expect(final.paid).toBe(0n)
    const txHashes = await sendAll(replicaTwo().url, final.body["transactions"])
    const receipt = await other.post("/trade/v1/receipt", { quoteId, txHashes })
    expect([receipt.status, receipt.body["result"]]).toEqual([200, "pass"])
    Object.assign(finished, { quoteId, txHashes })
    await fixture.cluster.start(replicaOne())
  }, 120_000)

  it("charges one of two concurrent swaps of one quote on two replicas; counts every failed attempt", async () => {
    const quote = await agentOn(replicaOne().url).post("/trade/v1/quote", {
      sell: USDC,
      buy: weth(),
      amount: "2",
      taker: me()
    })
    expect(quote.status).toBe(200)
    const quoteId: string = quote.body["quoteId"]
    // A taker with no USDC: each build fails (insufficient_balance), uncharged, and counts as an attempt.
    const broke = privateKeyToAccount(generatePrivateKey()).address
    const before = await feeRecipientUsdc()
    const failures = await Promise.all(
      [replicaOne(), replicaTwo(), replicaOne(), replicaTwo()].map((replica) =>
        agentOn(replica.url).post("/trade/v1/swap", { quoteId, taker: broke })
      )
    )
    expect(failures.map((answer) => [answer.status, answer.body["error"]?.["code"], answer.paid])).toEqual(
      Array(4).fill([422, "insufficient_balance", 0n])
    )
    const afterFailures = await fixture.stored(quoteId)
    expect(afterFailures._tag === "Live" && afterFailures.record.attempts.swapFailures).toBe(4)

    const swaps = await Promise.all(
      [replicaOne(), replicaTwo()].map((replica) =>
        agentOn(replica.url).post("/trade/v1/swap", { quoteId, taker: me() })
      )
    )
    const charged = swaps.filter((answer) => answer.paid > 0n)
    expect(charged).toHaveLength(1)
    expect(charged[0]!.status).toBe(200)
    // The other was refused uncharged, or came after the paid one and was free.
    for (const answer of swaps.filter((a) => a.paid === 0n)) {
      if (answer.status !== 200) {
        expect([answer.status, answer.body["error"]["code"]]).toEqual([502, "payment_unavailable"])
      }
    }
    expect((await feeRecipientUsdc()) - before).toBe(charged[0]!.paid)
    const stored = await fixture.stored(quoteId)
    expect(stored._tag === "Live" && stored.record.attempts).toEqual({
      swapFailures: 4,
      replacementIssued: false,
      swapPaid: true
    })
  }, 120_000)

  it("refuses on one replica a payment another replica was paid with", async () => {
    const body = JSON.stringify({ query: "WETH", limit: 1 })
    const post = (url: string, headers: Record<string, string> = {}) =>
      fetch(`${url}/trade/v1/search`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body
      })
    const offered = await post(replicaOne().url)
    const offer = decodePaymentRequiredHeader(offered.headers.get("payment-required")!)
    const { header } = await pay(wallet().account, offer)
    const before = await feeRecipientUsdc()
    const first = await post(replicaOne().url, { "payment-signature": header })
    expect(first.status).toBe(200)
    const again = await post(replicaTwo().url, { "payment-signature": header })
    expect(again.status).toBe(402)
    expect((await feeRecipientUsdc()) - before).toBe(BigInt(offer.accepts[0]!.amount))
  }, 60_000)

  it("keeps quotes and final receipts across a restart of every replica", async () => {
    const quote = await agentOn(fixture.cluster.baseUrl).post("/trade/v1/quote", {
      sell: USDC,
      buy: weth(),
      amount: "1",
      taker: me()
    })
    expect(quote.status).toBe(200)
    for (const replica of fixture.cluster.replicas) await fixture.cluster.stop(replica, "SIGTERM")
    for (const replica of fixture.cluster.replicas) await fixture.cluster.start(replica)

    const agent = agentOn(replicaTwo().url)
    const built = await agent.post("/trade/v1/swap", { quoteId: quote.body["quoteId"], taker: me() })
    expect(built.status).toBe(200)
    expect(built.paid).toBeGreaterThan(0n)
    const receipt = await agent.post("/trade/v1/receipt", finished)
    expect([receipt.status, receipt.body["result"]]).toEqual([200, "pass"])
  }, 120_000)

  it(
    "on SIGTERM fails its health check, then finishes a paid call in flight (charged once) or refuses it uncharged",
    async () => {
      const url = replicaTwo().url
      const body = JSON.stringify({ sell: USDC, buy: weth(), amount: "3", taker: me() })
      const post = (headers: Record<string, string> = {}) =>
        fetch(`${url}/trade/v1/quote`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body
        })
      const offer = decodePaymentRequiredHeader((await post()).headers.get("payment-required")!)
      const { header } = await pay(wallet().account, offer)
      const before = await feeRecipientUsdc()

      const answer = post({ "payment-signature": header }).then(
        async (response) => ({ status: response.status, settled: response.headers.get("payment-response") }),
        () => ({ status: 0, settled: null })
      )
      const exit = fixture.cluster.stop(replicaTwo(), "SIGTERM")
      let health = { status: 0, reason: "" }
      for (let attempt = 0; attempt < 200 && health.status !== 503; attempt++) {
        health = await fetch(`${url}/health`).then(
          async (r) => ({
            status: r.status,
            reason: String(((await r.json()) as { error?: { hint?: string } }).error?.hint)
          }),
          () => health
        )
      }
      expect(health).toEqual({ status: 503, reason: "draining: this replica is shutting down" })

      const { status, settled } = await answer
      await exit
      const charged = (await feeRecipientUsdc()) - before
      if (status === 200) {
        expect(settled).not.toBeNull()
        expect(charged).toBe(BigInt(offer.accepts[0]!.amount))
      } else {
        expect(charged).toBe(0n)
      }
      await fixture.cluster.start(replicaTwo())
    },
    120_000
  )
})
