/**
 * The stop rule: when a quote's answer is `next: stop` rather than `swap`. One definition, so the quote
 * and the replacement quote `swap` hands out (src/swap/Replacement.ts) cannot disagree on it.
 */
import type { SafetyVerdict } from "../../schema/Token.js"

export interface StopInputs {
  readonly safety: typeof SafetyVerdict.Type | null | undefined
  readonly executable: boolean
  readonly ready: boolean | undefined
}

export type StopReason =
  | { readonly _tag: "Verdict"; readonly verdict: "cannot_sell" | "illiquid" }
  | { readonly _tag: "NotExecutable" }
  | { readonly _tag: "NotReady" }

/** Why the quote stops, or undefined when it can be swapped. */
export const stopReason = ({ executable, ready, safety }: StopInputs): StopReason | undefined => {
  const verdict = safety?.verdict
  if (verdict === "cannot_sell" || verdict === "illiquid") return { _tag: "Verdict", verdict }
  if (!executable) return { _tag: "NotExecutable" }
  if (ready === false) return { _tag: "NotReady" }
  return undefined
}
