/**
 * Uniswap v4 hook permissions live in the low 14 bits of the hook's address (`Hooks.sol`). The ones
 * that matter for pricing are the two that let a hook return a delta: with them a hook can take or add
 * any amount on either side of a swap, so the pool's own math no longer tells what the trader gets.
 */
export const BEFORE_SWAP_RETURNS_DELTA_FLAG = 1n << 3n
export const AFTER_SWAP_RETURNS_DELTA_FLAG = 1n << 2n

const hasFlag = (hooks: string, flag: bigint): boolean => (BigInt(hooks) & flag) !== 0n

// Asked for every hop priced through a hooked pool; parsing the address each time showed in profiles.
const returnsDelta = new Map<string, boolean>()

/** Whether a hook may change a swap's amounts by returning a delta. */
export const hookReturnsSwapDelta = (hooks: string | null): boolean => {
  if (hooks === null) return false
  let known = returnsDelta.get(hooks)
  if (known === undefined) {
    known = hasFlag(hooks, BEFORE_SWAP_RETURNS_DELTA_FLAG) || hasFlag(hooks, AFTER_SWAP_RETURNS_DELTA_FLAG)
    if (returnsDelta.size >= 10_000) returnsDelta.clear()
    returnsDelta.set(hooks, known)
  }
  return known
}
