/**
 * What the scan reads of a token before simulating: its code and, behind an EIP-1967 proxy or beacon,
 * its implementation's; and the addresses that may hold a power over it. Those are candidates, not
 * findings: a power is only what a simulated call by one of them does and a stranger's does not.
 *
 * Candidates: whatever `owner()`, `getOwner()`, `admin()` and an AccessControl admin role's first member
 * answer; the EIP-1967 admin slot; the deployer (the node's `ots_getContractCreator`); and every
 * address-looking value in the token's first storage slots, where hidden admins, controllers and
 * "marketing wallets" with powers are kept (an address packed beside a flag is read from the low
 * 20 bytes, as solc packs it).
 */
import { Effect, Schema } from "effect"
import { type Address, getAddress, type Hex, numberToHex, parseAbi } from "viem"
import { ChainRpc } from "../../../layers/ChainRpc.js"

export const IMPLEMENTATION_SLOT: Hex = "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc"
const BEACON_SLOT: Hex = "0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50"
const ADMIN_SLOT: Hex = "0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103"

/** Storage slots read for stored addresses: state variables declared first, where solc puts them. */
const STORAGE_SLOTS = 16
/** A word's low 20 bytes below this are a number or a flag, not an address. */
const ADDRESS_FLOOR = 1n << 128n
const LOW_160 = (1n << 160n) - 1n

const getters = parseAbi([
  "function owner() view returns (address)",
  "function getOwner() view returns (address)",
  "function admin() view returns (address)",
  "function getRoleMember(bytes32 role, uint256 index) view returns (address)",
  "function implementation() view returns (address)"
])

export interface Candidate {
  readonly address: Address
  /** How it was found, for the flag's detail. */
  readonly role: string
}

export interface TokenAccounts {
  readonly codes: ReadonlyArray<Hex>
  readonly implementation: Address | undefined
  /** The address that can replace the implementation, when the proxy keeps it in the EIP-1967 slot. */
  readonly proxyAdmin: Address | undefined
  readonly candidates: ReadonlyArray<Candidate>
}

const addressIn = (word: Hex | undefined): Address | undefined => {
  if (word === undefined) return undefined
  const value = BigInt(word) & LOW_160
  return value < ADDRESS_FLOOR ? undefined : getAddress(numberToHex(value, { size: 20 }))
}

const Creator = Schema.NullOr(Schema.Struct({ creator: Schema.String }))

export const readAccounts = Effect.fn("Powers.accounts")(function*(token: Address, blockNumber: bigint) {
  const rpc = yield* ChainRpc
  const orNone = <A>(effect: Effect.Effect<A, unknown>) => Effect.orElseSucceed(effect, () => undefined)
  const slot = (address: Address, at: Hex) =>
    orNone(rpc.use("getStorageAt", (c) => c.getStorageAt({ address, slot: at, blockNumber })))
  const codeOf = (address: Address) => orNone(rpc.use("getCode", (c) => c.getCode({ address, blockNumber })))
  const ask = (address: Address, functionName: "owner" | "getOwner" | "admin" | "implementation") =>
    orNone(rpc.use(functionName, (c) => c.readContract({ address, abi: getters, functionName, blockNumber })))
  const roleAdmin = orNone(rpc.use("getRoleMember", (c) =>
    c.readContract({
      address: token,
      abi: getters,
      functionName: "getRoleMember",
      args: [`0x${"00".repeat(32)}`, 0n],
      blockNumber
    })))
  const creator = orNone(rpc.read(Creator, "ots_getContractCreator", [token]))
  const [code, implementationWord, beaconWord, adminWord, owner, getOwner, admin, role, created, stored] = yield* Effect
    .all([
      codeOf(token),
      slot(token, IMPLEMENTATION_SLOT),
      slot(token, BEACON_SLOT),
      slot(token, ADMIN_SLOT),
      ask(token, "owner"),
      ask(token, "getOwner"),
      ask(token, "admin"),
      roleAdmin,
      creator,
      Effect.all(
        Array.from({ length: STORAGE_SLOTS }, (_, i) => slot(token, numberToHex(i, { size: 32 }))),
        { concurrency: "unbounded" }
      )
    ], { concurrency: "unbounded" })
  const beacon = addressIn(beaconWord)
  const implementation = addressIn(implementationWord) ??
    (beacon === undefined ? undefined : yield* ask(beacon, "implementation"))
  const behind = implementation === undefined ? undefined : yield* codeOf(implementation)
  const proxyAdmin = addressIn(adminWord)
  const found: Array<Candidate> = []
  const add = (address: string | undefined, role: string) => {
    const value = address === undefined ? undefined : addressIn(address as Hex)
    if (value === undefined || value.toLowerCase() === token.toLowerCase()) return
    if (!found.some((known) => known.address === value)) found.push({ address: value, role })
  }
  add(owner, "owner()")
  add(getOwner, "getOwner()")
  add(admin, "admin()")
  add(role, "DEFAULT_ADMIN_ROLE member")
  add(proxyAdmin, "EIP-1967 admin")
  add(created?.creator, "deployer")
  stored.forEach((word, i) => add(word, `address in storage slot ${i}`))
  return {
    codes: [code, behind].filter((c): c is Hex => c !== undefined && c !== "0x"),
    implementation,
    proxyAdmin,
    candidates: found
  } satisfies TokenAccounts
})
