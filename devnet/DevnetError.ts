/** Why the devnet could not start: a missing binary, a port in use, a failed bootstrap step. */
import { Data } from "effect"

export class DevnetError extends Data.TaggedError("DevnetError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

/** First line of an error's message: viem errors carry pages of detail after it. */
export const causeLine = (cause: unknown): string =>
  (cause instanceof Error ? cause.message : String(cause)).split("\n")[0] ?? "unknown"
