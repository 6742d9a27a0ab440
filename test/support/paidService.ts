/**
 * The service served over HTTP on a private devnet with a fresh fee recipient, and what tests of paid
 * trades need around it: waiting for the index, the fee balances across an action, and takers that
 * send the returned transactions with viem exactly as given.
 */
import { type Address, erc20Abi, type Hex, parseAbi, type PrivateKeyAccount } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { type MovableClock, movableClock } from "./clock.js"
import { clientsFor, freshAccount, manifestAccount, type PrivateDevnet, startDevnet } from "./devnet.js"
import { forFile } from "./forFile.js"
import { readJson, startTestServer, type TestServer } from "./http.js"
import { deploymentOf } from "./services.js"
import { walletFor } from "./wallet.js"
import { USDC } from "./x402.js"

export interface PaidService {
  readonly devnet: PrivateDevnet
  readonly server: TestServer
  /** A manifest account with ERC-20 USDC that pays the calls. */
  readonly payer: PrivateKeyAccount
  readonly payTo: Address
  /** The server's clock: real time, or ahead of it while a test makes a quote look old. */
  readonly clock: MovableClock
  readonly stop: () => Promise<void>
}

/** `settings` are the server's extra environment (a shorter receipt wait, say). */
export const startPaidService = async (settings: Record<string, string> = {}): Promise<PaidService> => {
  const devnet = await startDevnet()
  const payTo = privateKeyToAccount(generatePrivateKey()).address
  const clock = movableClock()
  const server = await startTestServer(deploymentOf(devnet.manifest), { PAY_TO: payTo, ...settings }, {
    clock: clock.clock
  })
  const service = {
    devnet,
    server,
    clock,
    payer: manifestAccount(devnet.manifest, 4),
    payTo,
    stop: async () => {
      await server.close()
      await devnet.stop()
    }
  }
  await indexedPast(service, 0n)
  return service
}

/** A paid service for one test file (see forFile); `settings` as for startPaidService. */
export const paidServiceForFile = (settings: Record<string, string> = {}): PaidService =>
  forFile(() => startPaidService(settings), (service) => service.stop())

/** Waits until the service's index has applied `block`: quotes and swaps read wallets at the index's block. */
export const indexedPast = async (service: PaidService, block: bigint) => {
  for (let attempt = 0; attempt < 300; attempt++) {
    const health = await readJson(await fetch(`${service.server.baseUrl}/health`))
    if (health.status === "ok" && BigInt(health.indexedBlock ?? -1) >= block) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`the index did not reach block ${block}`)
}

/** USDC balance changes of the payer and the fee recipient across `action`. */
export const fees = (service: PaidService, action: () => Promise<unknown>) =>
  walletFor(service.devnet.manifest, service.payer).deltas(USDC, [service.payer.address, service.payTo], action)

const depositAbi = parseAbi(["function deposit() payable"])

export interface ReturnedTransaction {
  readonly to: string
  readonly data: string
  readonly value: string
  readonly gas: string
}

/** A taker with native USDC and 10 ERC-20 USDC, as the quote's readiness expects of a fee payer. */
export const newTaker = async (service: PaidService) => {
  const account = await freshAccount(service.devnet.manifest, "50000")
  const clients = clientsFor(service.devnet.manifest, account)
  const deposited = await clients.wallet.writeContract({
    account,
    chain: clients.chain,
    address: USDC,
    abi: depositAbi,
    functionName: "deposit",
    value: 10n ** 19n
  })
  await indexedPast(service, (await clients.public.waitForTransactionReceipt({ hash: deposited })).blockNumber)
  /** Sends one transaction exactly as returned and waits for the index to see it. */
  const send = async (tx: ReturnedTransaction) => {
    const hash = await clients.wallet.sendTransaction({
      account,
      chain: clients.chain,
      to: tx.to as Address,
      data: tx.data as Hex,
      value: BigInt(tx.value),
      gas: BigInt(tx.gas)
    })
    const receipt = await clients.public.waitForTransactionReceipt({ hash })
    await indexedPast(service, receipt.blockNumber)
    return receipt
  }
  const sendAll = async (transactions: ReadonlyArray<ReturnedTransaction>) => {
    const receipts = []
    for (const tx of transactions) receipts.push(await send(tx))
    return receipts
  }
  const balanceOf = (token: Address) =>
    clients.public.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [account.address] })
  return { account, address: account.address, send, sendAll, balanceOf }
}

export type Taker = Awaited<ReturnType<typeof newTaker>>
