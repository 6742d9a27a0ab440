/**
 * Gas of the service's router against the venues' own routers for the same trade from the same state
 * (`npm run bench -- router-gas`): each case runs every router from one anvil snapshot, reverting in
 * between, so they execute the identical swap and must deliver the identical output. Baselines: Uniswap's
 * v2 Router02 and v3 SwapRouter (ERC-20 approval, like our approval funding), v4-core's PoolSwapTest, and
 * the Universal Router 2.1.0 from npm (Permit2 funding, like our Permit2 funding). The stage and the
 * encoders are in ./router/; this file holds the cases and the table.
 */
import { type Address, encodePacked, type Hex, parseUnits } from "viem"
import { Funding, SHARE_ALL, StepFlag } from "../../src/execution/RouterPlan.js"
import { figure } from "./lib/report.js"
import {
  ours,
  step,
  swapTest,
  ur,
  urExecute,
  v2Swap,
  v2SwapOut,
  v3Path,
  v3PathOut,
  v3Single
} from "./router/encoders.js"
import {
  balanceOf,
  revertTo,
  role,
  router,
  send,
  snapshot,
  stopDevnet,
  universalRouter,
  USDC,
  v2Router,
  WBTC,
  WETH
} from "./router/stage.js"

// ---- the cases: every router from the same snapshot ----
interface Contender {
  readonly name: string
  readonly to: Address
  readonly data: Hex
}
interface Case {
  readonly name: string
  readonly buy: Address
  readonly contenders: ReadonlyArray<Contender>
}

const usdcIn = parseUnits("1000", 6)
const wethIn = parseUnits("0.3", 18)
const wbtcIn = parseUnits("0.02", 8)
const half = usdcIn / 2n
const v3TwoHop = encodePacked(["address", "uint24", "address", "uint24", "address"], [WBTC, 3000, USDC, 500, WETH])
const twoHopSteps = [
  step("v3:WBTC/USDC:3000", WBTC, wbtcIn, StepFlag.toRouter),
  step("v3:WETH/USDC:500", USDC, SHARE_ALL, StepFlag.fromRouter)
]
// Exact output along the same two pools: the last hop first, asking the first for exactly its input.
const wethOut = parseUnits("0.2", 18)
const v3TwoHopOut = encodePacked(["address", "uint24", "address", "uint24", "address"], [WETH, 500, USDC, 3000, WBTC])
const twoHopOutSteps = [
  { ...step("v3:WETH/USDC:500", USDC, wethOut, StepFlag.exactOut | StepFlag.fromRouter), limit: 2n ** 128n },
  { ...step("v3:WBTC/USDC:3000", WBTC, 0n, StepFlag.exactOut | StepFlag.toRouter), limit: wbtcIn }
]
// Exact output on the v2 pair: the router pays, re-reads the reserves and tops up only if they moved.
const v2WethOut = parseUnits("0.2", 18)
const v2OutSteps = [{ ...step("v2:WETH/USDC", USDC, v2WethOut, StepFlag.exactOut), limit: usdcIn * 2n }]
const splitSteps = [step("v2:WETH/USDC", USDC, half), step("v3:WETH/USDC:500", USDC, usdcIn - half)]

const cases: ReadonlyArray<Case> = [
  {
    name: "single v2 (1,000 USDC -> WETH)",
    buy: WETH,
    contenders: [
      {
        name: "router, approval",
        to: router,
        data: ours(Funding.approval, USDC, WETH, usdcIn, [step("v2:WETH/USDC", USDC, usdcIn)])
      },
      { name: "v2 Router02 (approval)", to: v2Router, data: v2Swap([USDC, WETH], usdcIn) },
      { name: "v2 Router02 fee-on-transfer variant", to: v2Router, data: v2Swap([USDC, WETH], usdcIn, true) },
      {
        name: "router, Permit2",
        to: router,
        data: ours(Funding.permit2, USDC, WETH, usdcIn, [step("v2:WETH/USDC", USDC, usdcIn)])
      },
      { name: "Universal Router (Permit2)", to: universalRouter, data: urExecute([ur.v2([USDC, WETH], usdcIn)]) }
    ]
  },
  {
    name: "single v2 exact out (USDC -> 0.2 WETH)",
    buy: WETH,
    contenders: [
      {
        name: "router, approval",
        to: router,
        data: ours(Funding.approval, USDC, WETH, usdcIn * 2n, v2OutSteps, v2WethOut)
      },
      { name: "v2 Router02 (approval)", to: v2Router, data: v2SwapOut([USDC, WETH], v2WethOut, usdcIn * 2n) },
      {
        name: "router, Permit2",
        to: router,
        data: ours(Funding.permit2, USDC, WETH, usdcIn * 2n, v2OutSteps, v2WethOut)
      }
    ]
  },
  // The v2 forks: no venue router can trade them (Router02 has Uniswap's init code hash built in). The
  // v2.5 pair's fee is read from the pair by the router; the 0.2 % fork's is the venue table's.
  ...[["lowfee-v2", "fixed 0.2 %"], ["pairfee-v2", "the pair's own 0.25 %"]].map(([venue, fee]): Case => ({
    name: `single ${venue} (1,000 USDC -> WETH, ${fee})`,
    buy: WETH,
    contenders: [Funding.approval, Funding.permit2].map((funding) => ({
      name: funding === Funding.approval ? "router, approval" : "router, Permit2",
      to: router,
      data: ours(funding, USDC, WETH, usdcIn, [step(`${venue}:WETH/USDC`, USDC, usdcIn)])
    }))
  })),
  {
    name: "single v3 (0.3 WETH -> USDC, 0.05 %)",
    buy: USDC,
    contenders: [
      {
        name: "router, approval",
        to: router,
        data: ours(Funding.approval, WETH, USDC, wethIn, [step("v3:WETH/USDC:500", WETH, wethIn)])
      },
      { name: "v3 SwapRouter (approval)", to: role("v3SwapRouter"), data: v3Single(WETH, USDC, 500, wethIn) },
      {
        name: "router, Permit2",
        to: router,
        data: ours(Funding.permit2, WETH, USDC, wethIn, [step("v3:WETH/USDC:500", WETH, wethIn)])
      },
      {
        name: "Universal Router (Permit2)",
        to: universalRouter,
        data: urExecute([ur.v3(encodePacked(["address", "uint24", "address"], [WETH, 500, USDC]), wethIn)])
      }
    ]
  },
  {
    name: "single v4 (1,000 USDC -> WETH, 0.05 %)",
    buy: WETH,
    contenders: [
      {
        name: "router, approval",
        to: router,
        data: ours(Funding.approval, USDC, WETH, usdcIn, [step("v4:WETH/USDC:500", USDC, usdcIn)])
      },
      {
        name: "v4 PoolSwapTest (approval)",
        to: role("v4SwapHelper"),
        data: swapTest("v4:WETH/USDC:500", USDC, usdcIn)
      },
      {
        name: "router, Permit2",
        to: router,
        data: ours(Funding.permit2, USDC, WETH, usdcIn, [step("v4:WETH/USDC:500", USDC, usdcIn)])
      },
      {
        name: "Universal Router (Permit2)",
        to: universalRouter,
        data: urExecute([ur.v4("v4:WETH/USDC:500", USDC, WETH, usdcIn)])
      }
    ]
  },
  {
    name: "two-hop v3 (0.02 WBTC -> USDC -> WETH)",
    buy: WETH,
    contenders: [
      { name: "router, approval", to: router, data: ours(Funding.approval, WBTC, WETH, wbtcIn, twoHopSteps) },
      { name: "v3 SwapRouter (approval)", to: role("v3SwapRouter"), data: v3Path(v3TwoHop, wbtcIn) },
      { name: "router, Permit2", to: router, data: ours(Funding.permit2, WBTC, WETH, wbtcIn, twoHopSteps) },
      { name: "Universal Router (Permit2)", to: universalRouter, data: urExecute([ur.v3(v3TwoHop, wbtcIn)]) }
    ]
  },
  {
    name: "two-hop v3 exact out (WBTC -> USDC -> 0.2 WETH)",
    buy: WETH,
    contenders: [
      {
        name: "router, approval",
        to: router,
        data: ours(Funding.approval, WBTC, WETH, wbtcIn, twoHopOutSteps, wethOut)
      },
      { name: "v3 SwapRouter (approval)", to: role("v3SwapRouter"), data: v3PathOut(v3TwoHopOut, wethOut, wbtcIn) },
      {
        name: "router, Permit2",
        to: router,
        data: ours(Funding.permit2, WBTC, WETH, wbtcIn, twoHopOutSteps, wethOut)
      },
      {
        name: "Universal Router (Permit2)",
        to: universalRouter,
        data: urExecute([ur.v3Out(v3TwoHopOut, wethOut, wbtcIn)])
      }
    ]
  },
  {
    name: "split v2 + v3 (500 + 500 USDC -> WETH)",
    buy: WETH,
    contenders: [
      { name: "router, approval", to: router, data: ours(Funding.approval, USDC, WETH, usdcIn, splitSteps) },
      { name: "router, Permit2", to: router, data: ours(Funding.permit2, USDC, WETH, usdcIn, splitSteps) },
      {
        name: "Universal Router (Permit2)",
        to: universalRouter,
        data: urExecute([
          ur.v2([USDC, WETH], half),
          ur.v3(encodePacked(["address", "uint24", "address"], [USDC, 500, WETH]), usdcIn - half)
        ])
      }
    ]
  }
]

console.log(`   ${"case / contender".padEnd(46)} ${"gas".padStart(8)}  ratio`)
for (const c of cases) {
  const results: Array<{ name: string; gas: bigint; out: bigint }> = []
  for (const contender of c.contenders) {
    const id = await snapshot()
    const before = await balanceOf(c.buy)
    const gas = await send(contender.to, contender.data)
    results.push({ name: contender.name, gas, out: (await balanceOf(c.buy)) - before })
    await revertTo(id)
  }
  const sameOutput = results.every((r) => r.out === results[0]!.out)
  figure(c.name, sameOutput ? "(every router delivered the same output)" : "(OUTPUTS DIFFER)")
  // Each of ours is compared with the venue router funded the same way (approval or Permit2).
  for (const r of results) {
    const peer = r.name.startsWith("router, approval")
      ? results.find((x) => x.name.includes("(approval)"))
      : r.name.startsWith("router, Permit2")
      ? results.find((x) => x.name.includes("(Permit2)"))
      : undefined
    const alsoVs = r.name.startsWith("router, approval") ? results.find((x) => x.name.includes("variant")) : undefined
    const ratio = [peer, alsoVs].filter((x) => x !== undefined)
      .map((x) => `${(Number(r.gas) / Number(x.gas)).toFixed(3)} vs ${x.name}`).join("; ")
    figure(`  ${r.name}`, `${r.gas.toString().padStart(8)}  ${ratio}`)
  }
}

await stopDevnet()
