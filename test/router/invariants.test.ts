/**
 * Bounded invariant fuzz in `npm test`: random plans over seeded and hostile pools (a re-entering
 * token with v2 and v3 pools, a re-entering hook, a greedy hook, a fee-on-transfer token, a creator-fee
 * hook, the launchpad curve), every funding kind, random corruptions; after each, the invariants of
 * ./fuzz/invariants.ts. `ROUTER_FUZZ_RUNS` and `ROUTER_FUZZ_SEED` widen it (`npm run bench -- router-fuzz`).
 */
import { describe, expect, it } from "@effect/vitest"
import { routerDevnetWith } from "./devnet.js"
import { deployHostile } from "./fixtures.js"
import { runFuzz } from "./fuzz/invariants.js"
import { buildWorld } from "./fuzz/world.js"

const runs = Number(process.env["ROUTER_FUZZ_RUNS"] ?? 60)
const seed = Number(process.env["ROUTER_FUZZ_SEED"] ?? 20261123)

const deployed = routerDevnetWith(
  async (env, lp) => ({ world: await buildWorld(env, await deployHostile(env, lp), lp) }),
  300_000
)

describe("router invariants under random plans", () => {
  it(`hold over ${runs} plans from seed ${seed}`, async () => {
    const started = performance.now()
    const stats = await runFuzz(deployed.world, runs, seed)
    const seconds = (performance.now() - started) / 1000
    console.log(`router fuzz: ${JSON.stringify({ ...stats, seconds: Number(seconds.toFixed(1)) })}`)
    // The fuzz must exercise both sides: plans that execute and plans the router refuses.
    expect(stats.executed).toBeGreaterThan(runs / 5)
    expect(Object.values(stats.refused).reduce((a, b) => a + b, 0)).toBeGreaterThan(0)
  }, 600_000)
})
