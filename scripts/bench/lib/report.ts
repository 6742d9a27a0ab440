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
