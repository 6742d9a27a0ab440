/**
 * A full garbage collection on demand, for tests that check what memory is let go. Vitest starts its
 * workers without `--expose-gc`; the flag set at run time makes `gc` available to contexts made after it.
 */
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"

setFlagsFromString("--expose-gc")

export const collectGarbage = runInNewContext("gc") as () => void
