/** Progress lines of a devnet start (anvil up, bootstrap time, cache hit), unless told to be quiet. */
import { Effect } from "effect"

export const say = (verbose: boolean, message: string) =>
  Effect.when(Effect.logInfo(`devnet: ${message}`), () => verbose)

export const elapsed = (since: number) => Math.round(performance.now() - since)
