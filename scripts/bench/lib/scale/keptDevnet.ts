/**
 * A devnet grown by real pools and kept running, to time catch-ups against it from several builds
 * (`catchUp.ts`): SCALE_SIZES (default 3000,10000,20000) are the sizes; it builds the first,
 * prints its manifest path, and grows to the next size on each SIGUSR2 (to the node process, not an npx
 * wrapper around it). Runs until SIGTERM. Kept under lib/ so `npm run bench -- scale` does not run it.
 */
import { benchDevnet } from "../devnet.js"
import { devnetMarket } from "../devnetMarket.js"

const SIZES = (process.env["SCALE_SIZES"] ?? "3000,10000,20000").split(",").map(Number)
const devnet = await benchDevnet("scale-kept")
const market = await devnetMarket(devnet.manifest, Math.max(...SIZES))
let built = 0
const grow = async () => {
  const size = SIZES.find((s) => s > built)
  if (size === undefined) return
  const t0 = performance.now()
  await market.build(built, size - built)
  built = size
  console.log(`devnet at ${built} extra pools (built in ${((performance.now() - t0) / 1000).toFixed(1)} s)`)
}
console.log(`manifest ${devnet.handle.manifestPath}`)
await grow()
process.on("SIGUSR2", () => void grow())
process.on("SIGTERM", () => void devnet.stop().then(() => process.exit(0)))
setInterval(() => {}, 60_000)
