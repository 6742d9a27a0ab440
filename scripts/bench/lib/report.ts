/** Figures printed the same way by every benchmark. */
export const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

export const figure = (label: string, value: string) => console.log(`   ${label.padEnd(46)} ${value}`)

export const ms = (value: number) => `${value < 1 ? value.toFixed(3) : value.toFixed(1)} ms`

export const heapMb = (): number => {
  const gc = (globalThis as { gc?: () => void }).gc
  gc?.()
  gc?.()
  return process.memoryUsage().heapUsed / 2 ** 20
}

/** Prints the p50 and p99 of latency `samples` (milliseconds) and returns them. */
export const latency = (label: string, samples: ReadonlyArray<number>) => {
  const sorted = [...samples].sort((a, b) => a - b)
  const p50 = percentile(sorted, 50)
  const p99 = percentile(sorted, 99)
  figure(label, `p50 ${ms(p50)}, p99 ${ms(p99)} (${samples.length} calls)`)
  return { p50, p99 }
}

/** Milliseconds `action` took. */
export const timed = async (action: () => Promise<unknown>): Promise<number> => {
  const started = performance.now()
  await action()
  return performance.now() - started
}
