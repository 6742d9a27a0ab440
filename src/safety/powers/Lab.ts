/**
 * The probe contracts of contracts/powers/PowerLab.sol, as runtime code the scan places by state
 * override (they are never deployed), and the fixed addresses of the scan's own accounts: fresh ones,
 * holding nothing on any chain, so no real holder's state is read as the victim's.
 */
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import { type Address, encodePacked, getAddress, type Hex, keccak256, parseAbi, toHex } from "viem"

const freshAddress = (label: string): Address => getAddress(`0x${keccak256(toHex(label)).slice(-40)}`)

export const LAB = freshAddress("power.lab")
export const OPERATOR = freshAddress("power.operator")
export const VICTIM = freshAddress("power.victim")
export const STRANGER = freshAddress("power.stranger")
/** No code, ever: a router or pair pointed here makes any call to it revert. */
export const NOWHERE = freshAddress("power.nowhere")

/** Where a puppet's own code is moved to (PowerPuppet's fallback delegates there). */
export const shadowOf = (account: Address): Address =>
  getAddress(`0x${keccak256(encodePacked(["string", "address"], ["power.shadow", account])).slice(-40)}`)

export const labAbi = parseAbi([
  "struct Setup { address token; address pool; address victim; address stranger; address[] watch; }",
  "function fund(address token, address[] funders, address victim) returns (uint256)",
  "function trials(Setup setup, address[] callers, bytes[] calls) returns (bytes[])"
])

/** What the lab carries out of a trial whose call was a read, or reverted, in place of its `SEEN`. */
export const READ = "0x01"
export const REVERTED = "0x02"

export const SEEN = [{
  type: "tuple",
  components: [
    { name: "readOnly", type: "bool" },
    { name: "ok", type: "bool" },
    { name: "supplyBefore", type: "uint256" },
    { name: "supplyAfter", type: "uint256" },
    { name: "before", type: "uint256[]" },
    { name: "afterwards", type: "uint256[]" },
    {
      name: "some",
      type: "tuple",
      components: [{ name: "ok", type: "bool" }, { name: "sent", type: "uint256" }, {
        name: "received",
        type: "uint256"
      }]
    },
    {
      name: "all",
      type: "tuple",
      components: [{ name: "ok", type: "bool" }, { name: "sent", type: "uint256" }, {
        name: "received",
        type: "uint256"
      }]
    }
  ]
}] as const

const BUILD = resolve(import.meta.dirname, "../../../build/contracts")

const runtimeOf = (name: string) =>
  (JSON.parse(readFileSync(resolve(BUILD, `${name}.json`), "utf8")) as { deployedBytecode: string }).deployedBytecode

const prefixed = (code: string): Hex => (code.startsWith("0x") ? code : `0x${code}`) as Hex

/** The lab's and the puppet's runtime code, compiled by scripts/compile-contracts.ts. */
export const labCode = Effect.try(() => ({
  lab: prefixed(runtimeOf("PowerLab")),
  puppet: prefixed(runtimeOf("PowerPuppet"))
}))
