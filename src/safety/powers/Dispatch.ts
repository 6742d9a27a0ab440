/**
 * The functions a contract's code dispatches on, read from its runtime bytecode: solc and vyper
 * compare the call's selector with each function's in a chain of `PUSH4 <selector> EQ … JUMPI`
 * (sometimes `PUSH4 <selector> DUP2 EQ`). A PUSH4 that is not compared and jumped on (a constant, a
 * binary-search pivot compared with GT) is not a function.
 */
import type { Hex } from "viem"

const PUSH1 = 0x60
const PUSH4 = 0x63
const PUSH32 = 0x7f
const EQ = 0x14
const DUP2 = 0x81
const JUMPI = 0x57

/** The selectors `code` dispatches on, as `0x` + 8 hex digits, in code order. */
export const dispatchedSelectors = (code: Hex): ReadonlyArray<Hex> => {
  const bytes = Buffer.from(code.slice(2), "hex")
  // Opcode positions, skipping push data, so that a byte inside a push is never read as an opcode.
  const ops: Array<number> = []
  for (let i = 0; i < bytes.length; i++) {
    ops.push(i)
    const op = bytes[i]!
    if (op >= PUSH1 && op <= PUSH32) i += op - PUSH1 + 1
  }
  const found = new Set<Hex>()
  for (let k = 0; k < ops.length; k++) {
    const at = ops[k]!
    if (bytes[at] !== PUSH4 || at + 4 >= bytes.length) continue
    let next = k + 1
    if (bytes[ops[next]!] === DUP2) next++
    if (bytes[ops[next]!] !== EQ) continue
    const push = bytes[ops[next + 1]!]
    const jumps = push !== undefined && push >= PUSH1 && push <= PUSH32 && bytes[ops[next + 2]!] === JUMPI
    if (jumps) found.add(`0x${bytes.subarray(at + 1, at + 5).toString("hex")}`)
  }
  return [...found]
}
