/**
 * Deploys every seeded token from its spec and gives the deployer the USDC that the pools need.
 * Each token kind maps to one of the project's contracts; the market code never branches on labels.
 */
import { Effect } from "effect"
import { type Address, numberToHex, parseEther } from "viem"
import { USDC_ADDRESS } from "../../schema/Chain.js"
import { loadArtifact } from "../Artifacts.js"
import { type Market, units } from "./context.js"
import { type TokenSpec, tokenSpecs, USDC } from "./data/tokens.js"

/** Native value behind the deployer's USDC: enough for every pool with room to spare. */
const DEPLOYER_USDC = 30_000_000

const constructorArgs = (spec: TokenSpec, treasury: Address): ReadonlyArray<unknown> => {
  const supply = units(spec.supply, spec.decimals)
  switch (spec.kind) {
    case "plain":
      return [spec.name, spec.symbol, spec.decimals, supply]
    case "tax":
      return [spec.name, spec.symbol, supply, spec.buyTaxBps ?? 0, spec.sellTaxBps ?? 0, treasury]
    case "honeypot":
      return [spec.name, spec.symbol, supply]
    case "capped":
      return [spec.name, spec.symbol, supply, units(spec.maxTxAmount ?? spec.supply, spec.decimals)]
  }
}

const artifactOf = {
  plain: "DevToken",
  tax: "TaxToken",
  honeypot: "HoneypotToken",
  capped: "CappedToken"
} as const

export const deployTokens = Effect.fn("deployTokens")(function*(market: Market) {
  market.tokens.set(USDC.label, { address: USDC_ADDRESS, spec: USDC })
  for (const spec of tokenSpecs) {
    const address = yield* market.tx.deploy(
      market.deployer,
      loadArtifact(artifactOf[spec.kind]),
      constructorArgs(spec, market.treasury),
      spec.label
    )
    market.tokens.set(spec.label, { address, spec })
  }
  // USDC exists only as deposits of native value; the deployer deposits enough for every pool.
  const native = parseEther(String(DEPLOYER_USDC))
  yield* market.tx.request("anvil_setBalance", [market.deployer, numberToHex(native + parseEther("1000000"))])
  yield* market.tx.send(market.deployer, { to: USDC_ADDRESS, value: native }, "deposit USDC")
})
