/**
 * The start-up check of a v2-family venue (./VenueChecks.ts runs it): the pair init code hash puts the
 * factory's first pair at its CREATE2 address, and for a per-pair fee ("v2.5") venue that pair answers
 * the fee getter the file names with one word below the denominator. The service keeps a pair's fee in
 * pips (hundredths of a bp), so a denominator that does not divide 10⁶ could not be priced to the unit
 * and is refused too.
 */
import { Effect } from "effect"
import {
  type Address,
  encodeFunctionData,
  encodePacked,
  getAddress,
  getCreate2Address,
  type Hex,
  keccak256,
  parseAbi,
  toFunctionSelector
} from "viem"
import { RpcHex } from "../schema/Chain.js"
import type { V2VenueEntry } from "../schema/VenueFile.js"
import type { ChainRpc } from "./ChainRpc.js"
import { VenueFileRefused } from "./Deployment.js"
import { initCodeHashFix } from "./InitCodeHashFound.js"

type Rpc = Pick<ChainRpc["Type"], "read">

const abi = parseAbi([
  "function allPairsLength() view returns (uint256)",
  "function allPairs(uint256) view returns (address)",
  "function token0() view returns (address)",
  "function token1() view returns (address)"
])
const data = (functionName: (typeof abi)[number]["name"], args: ReadonlyArray<unknown> = []) =>
  encodeFunctionData({ abi, functionName, args } as never)

const refuse = (message: string) => Effect.fail(new VenueFileRefused({ message }))

const call = (rpc: Rpc, to: string, data: string) => rpc.read(RpcHex, "eth_call", [{ to, data }, "latest"])

const word = (hex: Hex): bigint => hex === "0x" ? 0n : BigInt(hex.slice(0, 66))
const addressOf = (hex: Hex): Address => `0x${hex.slice(26, 66)}`
const PIPS = 1_000_000

const checkFeeGetter = Effect.fn("VenueChecks.v2FeeGetter")(
  function*(rpc: Rpc, entry: typeof V2VenueEntry.Type, getter: string, denominator: number, pair: Address) {
    // A getter the pair lacks reverts; an answer is read only when it is one word.
    const answer = yield* call(rpc, pair, toFunctionSelector(getter)).pipe(Effect.orElseSucceed((): Hex => "0x"))
    if (answer.length !== 66) {
      return yield* refuse(`venue ${entry.id}: the pair ${getAddress(pair)} does not answer the fee getter ${getter}`)
    }
    if (word(answer) >= BigInt(denominator)) {
      return yield* refuse(
        `venue ${entry.id}: the pair ${getAddress(pair)} reports a fee of ${word(answer)} through ${getter}, ` +
          `not below the file's denominator ${denominator}`
      )
    }
  }
)

export const checkV2 = Effect.fn("VenueChecks.v2")(function*(rpc: Rpc, entry: typeof V2VenueEntry.Type) {
  const perPair = "perPair" in entry.fee ? entry.fee.perPair : undefined
  if (perPair !== undefined && PIPS % perPair.denominator !== 0) {
    return yield* refuse(
      `venue ${entry.id}: fee denominator ${perPair.denominator} does not divide 1000000, ` +
        `so its pairs' fees cannot be priced exactly`
    )
  }
  if (word(yield* call(rpc, entry.factory, data("allPairsLength"))) === 0n) {
    return yield* Effect.logWarning(`venue ${entry.id}: the factory has no pair yet; pairInitCodeHash unchecked`)
  }
  const pair = addressOf(yield* call(rpc, entry.factory, data("allPairs", [0n])))
  const token0 = addressOf(yield* call(rpc, pair, data("token0")))
  const token1 = addressOf(yield* call(rpc, pair, data("token1")))
  const salt = keccak256(encodePacked(["address", "address"], [token0, token1]))
  const expected = getCreate2Address({
    from: entry.factory,
    salt,
    bytecodeHash: entry.pairInitCodeHash
  })
  if (expected.toLowerCase() !== pair.toLowerCase()) {
    const fix = yield* initCodeHashFix(rpc, entry.factory, salt, pair, "pairInitCodeHash")
    return yield* refuse(
      `venue ${entry.id}: pairInitCodeHash ${entry.pairInitCodeHash} is wrong: the factory's first pair ` +
        `${getAddress(pair)} is not at the CREATE2 address it gives, ${getAddress(expected)}${fix}`
    )
  }
  if (perPair !== undefined) yield* checkFeeGetter(rpc, entry, perPair.getter, perPair.denominator, pair)
})
