/**
 * What a token's owner could still do, read from the chain at the verdict's block (never from a
 * database of names): flags that inform, beside a verdict that stays the measured behaviour.
 *
 * - `upgradeable`: an EIP-1967 implementation slot, or beacon slot, is set: whoever administers the
 *   proxy can replace every rule the round trip measured.
 * - `owner_can_set_tax`, `owner_can_blacklist`, `owner_can_pause`, `owner_can_limit_tx`,
 *   `owner_can_stop_trading`: `owner()` answers a non-zero address (not renounced) and the function
 *   selectors the code dispatches on (its own, and its implementation's behind a proxy) include a
 *   setter of that kind. Selectors are found as PUSH4 operands in the bytecode: a superset of the
 *   dispatched functions, which is the cautious direction for a warning.
 */
import { Effect } from "effect"
import { type Address, type Hex, parseAbi, toFunctionSelector } from "viem"
import { ChainRpc } from "../../../layers/ChainRpc.js"

export type OwnerFlag =
  | "upgradeable"
  | "owner_can_set_tax"
  | "owner_can_blacklist"
  | "owner_can_pause"
  | "owner_can_limit_tx"
  | "owner_can_stop_trading"

/** keccak256("eip1967.proxy.implementation") - 1 and keccak256("eip1967.proxy.beacon") - 1. */
const IMPLEMENTATION_SLOT = "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc"
const BEACON_SLOT = "0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50"

/** Setter signatures by the power they give; the commonest spellings in deployed tokens. */
const SETTERS: ReadonlyArray<readonly [OwnerFlag, ReadonlyArray<string>]> = [
  ["owner_can_set_tax", [
    "setFee(uint256)",
    "setFees(uint256,uint256)",
    "setTax(uint256)",
    "setTaxes(uint256,uint256)",
    "setBuyTax(uint256)",
    "setSellTax(uint256)",
    "setBuyFee(uint256)",
    "setSellFee(uint256)",
    "updateFees(uint256,uint256)",
    "updateSellFees(uint256,uint256,uint256)"
  ]],
  ["owner_can_blacklist", [
    "blacklist(address)",
    "blacklist(address,bool)",
    "setBlacklist(address,bool)",
    "addToBlacklist(address)",
    "blacklistAddress(address,bool)",
    "setBot(address,bool)",
    "setBots(address[],bool)",
    "addBots(address[])"
  ]],
  ["owner_can_pause", ["pause()", "setPaused(bool)"]],
  ["owner_can_limit_tx", [
    "setMaxTxAmount(uint256)",
    "setMaxTransactionAmount(uint256)",
    "updateMaxTxnAmount(uint256)",
    "setMaxWallet(uint256)",
    "setMaxWalletSize(uint256)"
  ]],
  ["owner_can_stop_trading", [
    "enableTrading()",
    "openTrading()",
    "setTrading(bool)",
    "setTradingEnabled(bool)",
    "setSellsLocked(bool)"
  ]]
]

const SELECTORS: ReadonlyArray<readonly [OwnerFlag, ReadonlySet<string>]> = SETTERS.map(([flag, signatures]) => [
  flag,
  new Set(signatures.map((signature) => toFunctionSelector(`function ${signature}`).slice(2)))
])

const PUSH1 = 0x60
const PUSH4 = 0x63
const PUSH32 = 0x7f

/** The 4-byte operands of PUSH4 in `code`, as lower-case hex, skipping every other push's data. */
export const pushedSelectors = (code: Hex): ReadonlySet<string> => {
  const bytes = Buffer.from(code.slice(2), "hex")
  const found = new Set<string>()
  for (let i = 0; i < bytes.length; i++) {
    const op = bytes[i]!
    if (op < PUSH1 || op > PUSH32) continue
    const size = op - PUSH1 + 1
    if (op === PUSH4 && i + 4 < bytes.length) found.add(bytes.subarray(i + 1, i + 5).toString("hex"))
    i += size
  }
  return found
}

/** The flags a token's code and owner earn it (pure, for tests). */
export const flagsOf = (
  input: { readonly upgradeable: boolean; readonly owned: boolean; readonly codes: ReadonlyArray<Hex> }
) => {
  const flags: Array<OwnerFlag> = input.upgradeable ? ["upgradeable"] : []
  if (!input.owned) return flags
  const selectors = new Set(input.codes.flatMap((code) => [...pushedSelectors(code)]))
  for (const [flag, setters] of SELECTORS) {
    if ([...setters].some((selector) => selectors.has(selector))) flags.push(flag)
  }
  return flags
}

const ownerAbi = parseAbi([
  "function owner() view returns (address)",
  "function implementation() view returns (address)"
])

const addressIn = (word: Hex | undefined): Address | undefined => {
  if (word === undefined || BigInt(word) === 0n) return undefined
  return `0x${word.slice(-40)}`
}

/** The token's owner flags at `block`; a read the node refuses counts as "not there" (no flag). */
export const readOwnerFlags = Effect.fn("Safety.ownerFlags")(function*(token: Address, block: bigint) {
  const rpc = yield* ChainRpc
  const blockNumber = block
  const orNone = <A>(effect: Effect.Effect<A, unknown>) => Effect.orElseSucceed(effect, () => undefined)
  const slot = (at: Hex) =>
    orNone(rpc.use("getStorageAt", (c) => c.getStorageAt({ address: token, slot: at, blockNumber })))
  const call = (address: Address, functionName: "owner" | "implementation") =>
    orNone(rpc.use(functionName, (c) => c.readContract({ address, abi: ownerAbi, functionName, blockNumber })))
  const codeOf = (address: Address) => orNone(rpc.use("getCode", (c) => c.getCode({ address, blockNumber })))
  const [implementationWord, beaconWord, owner, code] = yield* Effect.all(
    [slot(IMPLEMENTATION_SLOT), slot(BEACON_SLOT), call(token, "owner"), codeOf(token)],
    { concurrency: "unbounded" }
  )
  const beacon = addressIn(beaconWord)
  const implementation = addressIn(implementationWord) ??
    (beacon === undefined ? undefined : yield* call(beacon, "implementation"))
  const behind = implementation === undefined ? undefined : yield* codeOf(implementation)
  return flagsOf({
    upgradeable: implementation !== undefined || beacon !== undefined,
    owned: owner !== undefined && BigInt(owner) !== 0n,
    codes: [code, behind].filter((c): c is Hex => c !== undefined)
  })
})
