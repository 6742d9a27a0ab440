/**
 * Funds the client accounts: each deposits native value for ERC-20 USDC (keeping most of its native
 * balance for gas and native-funded trades) and receives a bag of every seeded token, sized in dollars
 * and growing with the account index so balances differ.
 */
import { Effect } from "effect"
import { type Address, parseEther } from "viem"
import { USDC_ADDRESS } from "../../schema/Chain.js"
import { type Market, transfer, usdWorth } from "./context.js"

export const CLIENT_USDC = 100_000
const BAG_USD = 20_000

export const fundHolders = Effect.fn("fundHolders")(function*(market: Market, clients: ReadonlyArray<Address>) {
  for (const [i, client] of clients.entries()) {
    yield* market.tx.send(client, { to: USDC_ADDRESS, value: parseEther(String(CLIENT_USDC)) }, "deposit USDC")
    for (const [label, seeded] of market.tokens) {
      if (seeded.address === USDC_ADDRESS) continue
      yield* transfer(market, market.deployer, seeded.address, client, usdWorth(market, label, BAG_USD * (1 + i / 4)))
    }
  }
})
