/**
 * Errors made without a stack trace. A refusal the caller is meant to read (the 402 offer of every
 * unpaid call, a payment refused) is an answer, not a fault to debug: its stack said nothing, and
 * capturing one was a measurable part of answering such a call (docs/performance.md).
 */
export const withoutStack = <A>(make: () => A): A => {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    return make()
  } finally {
    Error.stackTraceLimit = limit
  }
}
