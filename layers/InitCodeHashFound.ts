/**
 * The fix for a refused init code hash: the hash that does put the factory's first pool where it is.
 * A pool's address commits to the hash of the init code its factory (or pool deployer) ran through
 * CREATE2. Solidity embeds that init code (`type(Pool).creationCode`) whole in the deployer's own code,
 * from a constructor prologue (`6080604052`, or `61…604052` with immutables), and copies it out with `PUSH2 length … PUSH2 offset …
 * CODECOPY`. So for each prologue, the two-byte pushes of the code are the candidate lengths (the ones
 * beside a push of that offset first); each span is hashed, and the one whose CREATE2 address is the
 * pool's is the value the file should hold. A deployer built otherwise leaves the recipe.
 */
import { Effect, Option } from "effect"
import { type Address, getAddress, getCreate2Address, type Hex, isAddressEqual, keccak256 } from "viem"
import { RpcHex } from "../schema/Chain.js"
import type { ChainRpc } from "./ChainRpc.js"

type Rpc = Pick<ChainRpc["Type"], "read">

const PROLOGUE = "6080604052"
/** More spans than this are not tried: a deployer this odd is left to the operator. */
const MAX_SPANS = 4_096

/** Every offset (in hex characters, without 0x) where `pattern` starts on a byte boundary. */
const offsets = (code: string, pattern: string): Array<number> => {
  const found: Array<number> = []
  for (let at = code.indexOf(pattern); at >= 0; at = code.indexOf(pattern, at + 1)) {
    if (at % 2 === 0) found.push(at)
  }
  return found
}

/** The operands of `PUSH2` (0x61) in `code[from, to)`, in bytes. */
const push2s = (code: string, from: number, to: number): Array<number> =>
  offsets(code.slice(from, to), "61").map((at) => parseInt(code.slice(from + at + 2, from + at + 6), 16))

/** Where an init code may start: `PUSH1 0x80` or, with immutables, `PUSH2 …`, then `PUSH1 0x40 MSTORE`. */
const starts = (code: string): Array<number> => [
  ...offsets(code, PROLOGUE),
  ...offsets(code, "604052").map((at) => at - 6).filter((at) => at >= 0 && code.slice(at, at + 2) === "61")
]

/** Candidate [start, end) spans of an embedded init code, in hex characters, likeliest first. */
const spans = (code: string): Array<readonly [number, number]> => {
  const all = [...new Set(push2s(code, 0, code.length))]
  const beside = (start: number) =>
    offsets(code, `61${(start / 2).toString(16).padStart(4, "0")}`)
      .flatMap((at) => push2s(code, Math.max(0, at - 24), at))
  const span = (start: number) => (length: number) =>
    length > 0 && start + length * 2 <= code.length ? [[start, start + length * 2] as const] : []
  const first = starts(code)
  return [
    ...first.flatMap((start) => beside(start).flatMap(span(start))),
    ...first.flatMap((start) => all.flatMap(span(start)))
  ].slice(0, MAX_SPANS)
}

const foundHash = (rpc: Rpc, deployer: Address, salt: Hex, pool: Address) =>
  Effect.map(rpc.read(RpcHex, "eth_getCode", [deployer, "latest"]), (code) => {
    const hex = code.slice(2)
    for (const [start, end] of spans(hex)) {
      const hash = keccak256(`0x${hex.slice(start, end)}`)
      if (isAddressEqual(getCreate2Address({ from: deployer, salt, bytecodeHash: hash }), pool)) {
        return Option.some(hash)
      }
    }
    return Option.none<Hex>()
  }).pipe(Effect.orElseSucceed(() => Option.none<Hex>()))

/** What to write instead of a wrong hash: the value found, or how to find it. */
export const initCodeHashFix = (rpc: Rpc, deployer: Address, salt: Hex, pool: Address, field: string) =>
  Effect.map(foundHash(rpc, deployer, salt, pool), (found) =>
    Option.match(found, {
      onSome: (hash) =>
        `; the init code embedded in ${getAddress(deployer)} that creates ${getAddress(pool)} hashes to ${hash}: ` +
        `set ${field} to it`,
      onNone: () =>
        `; ${field} is keccak256 of the init code ${getAddress(deployer)} deploys with CREATE2 ` +
        `(the pool contract's creation code, e.g. from the factory's verified sources)`
    }))
