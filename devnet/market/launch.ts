/**
 * Launchpad activity as timed steps: token creation by its creator, curve buys and sells, and
 * graduation into a Uniswap v2 pool, which then joins the market like any other pair.
 */
import { Effect } from "effect"
import { type Address, erc20Abi, parseEventLogs, parseUnits, type TransactionReceipt } from "viem"
import { USDC_ADDRESS } from "../../schema/Chain.js"
import { loadArtifact } from "../Artifacts.js"
import { DevnetError } from "../DevnetError.js"
import { LAUNCHPAD } from "../protocol.js"
import { approve, type Market } from "./context.js"
import type { CurveTradeSpec, LaunchSpec } from "./data/launches.js"
import { listV2Pool } from "./seedV2.js"
import type { TimedStep } from "./steps.js"

const SHARE_SCALE = 1_000_000n

const launchpadOf = (market: Market) => ({ address: market.protocol.launchpad, abi: loadArtifact("Launchpad").abi })

/** Curve reserves → USD per whole token (USDC has 6 decimals, launch tokens 18). */
const curvePrice = Effect.fn("curvePrice")(function*(market: Market, token: Address) {
  const [usdc, tokens] = yield* market.tx.read<readonly [bigint, bigint]>(launchpadOf(market), "curveReserves", [token])
  return (Number(usdc) / 1e6) / (Number(tokens) / 1e18)
})

const created = Effect.fn("created")(function*(receipt: TransactionReceipt) {
  const [event] = parseEventLogs({ abi: loadArtifact("Launchpad").abi, logs: receipt.logs, eventName: "TokenCreated" })
  if (event === undefined) return yield* new DevnetError({ message: "createToken emitted no TokenCreated" })
  return (event.args as { token: Address }).token
})

export const launchSteps = (
  market: Market,
  clients: ReadonlyArray<Address>,
  spec: LaunchSpec
): ReadonlyArray<TimedStep> => {
  const launchpad = launchpadOf(market)
  const client = (i: number) => clients[i] ?? clients[0] as Address
  let token: Address | undefined
  const address = () => {
    if (token === undefined) throw new Error(`${spec.label} traded before it was created`)
    return token
  }
  const reprice = Effect.gen(function*() {
    const priceUsd = yield* curvePrice(market, address())
    const previous = market.tokens.get(spec.label)
    if (previous !== undefined) market.tokens.set(spec.label, { ...previous, spec: { ...previous.spec, priceUsd } })
  })

  const create: TimedStep = {
    minutesAgo: spec.createdMinutesAgo,
    run: Effect.gen(function*() {
      const receipt = yield* market.tx.writeMined(client(spec.creator), launchpad, "createToken", [
        spec.name,
        spec.symbol
      ])
      token = yield* created(receipt)
      market.tokens.set(spec.label, {
        address: token,
        spec: {
          label: spec.label,
          kind: "plain",
          name: spec.name,
          symbol: spec.symbol,
          decimals: 18,
          priceUsd: 0,
          supply: 1e9
        }
      })
      yield* reprice
    })
  }

  const trade = (step: CurveTradeSpec): TimedStep => ({
    minutesAgo: step.minutesAgo,
    run: Effect.gen(function*() {
      const trader = client(step.trader)
      if (step.buyUsdc !== undefined) {
        yield* approve(market, trader, USDC_ADDRESS, launchpad.address)
        yield* market.tx.write(trader, launchpad, "buy", [address(), parseUnits(String(step.buyUsdc), 6), 0n])
      } else {
        const held = yield* market.tx.read<bigint>({ address: address(), abi: erc20Abi }, "balanceOf", [trader])
        const amount = held * BigInt(Math.round((step.sellShare ?? 0) * 1e6)) / SHARE_SCALE
        yield* approve(market, trader, address(), launchpad.address)
        yield* market.tx.write(trader, launchpad, "sell", [address(), amount, 0n])
      }
      yield* reprice
    })
  })

  const graduate = (minutesAgo: number): TimedStep => ({
    minutesAgo,
    run: Effect.gen(function*() {
      const creator = client(spec.creator)
      const [usdcReserve] = yield* market.tx.read<readonly [bigint, bigint]>(launchpad, "curveReserves", [address()])
      const raised = usdcReserve - LAUNCHPAD.virtualUsdc
      if (raised < LAUNCHPAD.graduationUsdc) {
        yield* approve(market, creator, USDC_ADDRESS, launchpad.address)
        yield* market.tx.write(creator, launchpad, "buy", [address(), LAUNCHPAD.graduationUsdc - raised, 0n])
      }
      yield* reprice
      yield* market.tx.write(creator, launchpad, "graduate", [address()])
      const factory = { address: market.protocol.v2Factory, abi: loadArtifact("UniswapV2Factory").abi }
      const pair = yield* market.tx.read<Address>(factory, "getPair", [address(), USDC_ADDRESS])
      const [finalUsdc] = yield* market.tx.read<readonly [bigint, bigint]>(launchpad, "curveReserves", [address()])
      listV2Pool(
        market,
        [spec.label, "USDC"],
        [address(), USDC_ADDRESS],
        pair,
        2 * Number(finalUsdc - LAUNCHPAD.virtualUsdc) / 1e6
      )
    })
  })

  return [
    create,
    ...spec.trades.map(trade),
    ...(spec.graduateMinutesAgo === undefined ? [] : [graduate(spec.graduateMinutesAgo)])
  ]
}
