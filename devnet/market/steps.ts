/** A market action placed in time, and a runner that plays a list of them oldest first. */
import { Effect } from "effect"
import type { DevnetError } from "../DevnetError.js"
import type { Clock } from "./clock.js"

export interface TimedStep<E = DevnetError> {
  readonly minutesAgo: number
  readonly run: Effect.Effect<void, E>
}

export const runSteps = <E>(clock: Clock, steps: ReadonlyArray<TimedStep<E>>) =>
  Effect.forEach(
    [...steps].sort((a, b) => b.minutesAgo - a.minutesAgo),
    (step) => Effect.zipRight(clock.at(step.minutesAgo * 60), step.run),
    { discard: true }
  )
