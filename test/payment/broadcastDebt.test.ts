/**
 * Broadcast settlement's accounted risk (issue 23): a payer served on a settlement that was only sent
 * moves its USDC away in the block that mines it (its own transfer, with a higher tip, ordered first;
 * the miner is paused meanwhile so both land in one block). The settlement reverts; the payer owes the
 * call's price, `/health` shows the debt, and its next call is refused (`invalid_transaction_state`,
 * `PAYMENT-RESPONSE` naming the failed settlement) until it transfers what it owes to the fee recipient.
 */
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http"
import { erc20Abi, type Hex } from "viem"
import { expect, it } from "vitest"
import { clientsFor, freshAccount, pooled } from "../support/devnet.js"
import { readJson } from "../support/http.js"
import { paidServiceForFile } from "../support/paidService.js"
import { walletFor } from "../support/wallet.js"
import { pay, USDC } from "../support/x402.js"

const service = paidServiceForFile({ SETTLEMENT_MODE: "broadcast" })

const body = JSON.stringify({ query: "WETH", limit: 1 })
const search = (payment?: string) =>
  fetch(`${service.server.baseUrl}/trade/v1/search`, {
    method: "POST",
    body,
    headers: payment === undefined
      ? { "content-type": "application/json" }
      : { "content-type": "application/json", "payment-signature": payment }
  })

const paidSearch = async () => {
  const offer = decodePaymentRequiredHeader((await search()).headers.get("payment-required") ?? "")
  const { header } = await pay(service.payer, offer)
  return search(header)
}

const payments = async () => (await readJson(await fetch(`${service.server.baseUrl}/health`))).payments

it("refuses a payer whose served settlement failed until it pays what it owes, and shows the debt", async () => {
  const { manifest } = service.devnet
  const chain = clientsFor(manifest, service.payer)
  const payer = walletFor(manifest, service.payer)
  const sink = await freshAccount(manifest)
  expect(await payments()).toEqual({
    settlementMode: "broadcast",
    unconfirmed: { count: 0, value: "0" },
    debts: { count: 0, value: "0" },
    payers: []
  })

  await chain.test.setAutomine(false)
  let settlement: Hex
  try {
    const served = await paidSearch()
    expect(served.status).toBe(200)
    const receipt = decodePaymentResponseHeader(served.headers.get("payment-response") ?? "")
    expect(receipt).toMatchObject({ success: true, payer: service.payer.address, network: "eip155:5042" })
    settlement = receipt.transaction as Hex
    // Answered before it was sent: the node has it a moment later.
    await pooled(manifest, settlement)
    // Served before it is mined: the operator sees it unconfirmed.
    expect((await payments()).unconfirmed).toEqual({ count: 1, value: "5000" })
    // The payer moves everything away with a tip that orders it before the settlement in the block.
    await chain.wallet.writeContract({
      account: service.payer,
      chain: chain.chain,
      address: USDC,
      abi: erc20Abi,
      functionName: "transfer",
      args: [sink.address, await payer.balanceOf(USDC)],
      gas: 100_000n,
      maxPriorityFeePerGas: 50_000_000_000n,
      maxFeePerGas: 100_000_000_000n
    })
    await chain.test.mine({ blocks: 1 })
  } finally {
    await chain.test.setAutomine(true)
  }
  expect((await chain.public.getTransactionReceipt({ hash: settlement })).status).toBe("reverted")

  // The background confirmation records the debt once it reads the receipt.
  let seen = await payments()
  for (let attempt = 0; attempt < 100 && seen.debts.count === 0; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    seen = await payments()
  }
  expect(seen).toEqual({
    settlementMode: "broadcast",
    unconfirmed: { count: 0, value: "0" },
    debts: { count: 1, value: "5000" },
    payers: []
  })

  // Funds back, but the debt stands: refused, naming the failed settlement.
  await walletFor(manifest, sink).transfer(USDC, service.payer.address, 1_000_000n)
  const refused = await paidSearch()
  expect(refused.status).toBe(402)
  expect(await refused.json()).toEqual({})
  expect(decodePaymentRequiredHeader(refused.headers.get("payment-required") ?? "").error).toBe(
    "invalid_transaction_state"
  )
  expect(decodePaymentResponseHeader(refused.headers.get("payment-response") ?? "")).toEqual({
    success: false,
    errorReason: "invalid_transaction_state",
    transaction: settlement,
    network: "eip155:5042",
    payer: service.payer.address
  })

  // Paid: the owed 5,000 base units transferred to the fee recipient. The next call is served.
  await payer.transfer(USDC, service.payTo, 5_000n)
  const served = await paidSearch()
  expect(served.status).toBe(200)
  expect((await payments()).debts).toEqual({ count: 0, value: "0" })
})
