/** Kept apart from vitest so that benchmarks can read reverts too. */
import type { Hex } from "viem"

/** The revert data somewhere in a viem error's cause chain. */
export const findRevertData = (error: unknown): Hex | undefined => {
  let current: unknown = error
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    const data = (current as { data?: unknown }).data
    if (typeof data === "string" && data.startsWith("0x")) return data as Hex
    if (typeof data === "object" && data !== null && typeof (data as { data?: unknown }).data === "string") {
      return (data as { data: Hex }).data
    }
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}
