/**
 * Quote latency, in-process: the whole `quote` operation as the HTTP handler runs it. Warm: the same
 * order again at the same block (its sell-back verdict is cached); cold: a new size every call, so the
 * fresh-wallet simulation runs each time.
 */
import { latency } from "../report.js"
import type { QuoteBench } from "./context.js"

const WARM = 1_000
const COLD = 100

export const quoteLatency = async ({ ask, token }: QuoteBench) => {
  const time = async (amount: string) => {
    const started = performance.now()
    await ask({ sell: token("USDC"), buy: token("WETH"), amount })
    return performance.now() - started
  }
  for (let i = 0; i < 50; i++) await time("2500") // JIT warm-up
  const warm: Array<number> = []
  for (let i = 0; i < WARM; i++) warm.push(await time("2500"))
  latency("quote USDC→WETH $2,500, warm (verdict cached)", warm)
  const cold: Array<number> = []
  for (let i = 0; i < COLD; i++) cold.push(await time(`${2_500 + i + 1}.25`))
  latency("quote USDC→WETH, cold (new size: fresh simulation)", cold)
}
