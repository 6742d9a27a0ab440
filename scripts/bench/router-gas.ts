/**
 * Gas of the service's router against the venues' own routers for the same trade from the same state
 * (`npm run bench -- router-gas`): each case runs every router from one anvil snapshot, reverting in
 * between, so they execute the identical swap and must deliver the identical output. Baselines: Uniswap's
 * v2 Router02 and v3 SwapRouter (ERC-20 approval, like our approval funding), v4-core's PoolSwapTest, and
 * the Universal Router 2.1.0 from npm (Permit2 funding, like our Permit2 funding). Reading this file top to bottom:
 * set-up, one encoder per router, the cases, the table.
 */
import { NodeContext } from "@effect/platform-node"
import { Effect, Exit, Option, Scope } from "effect"
import { readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  type Abi,
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  keccak256,
  maxUint256,
  parseAbi,
  parseUnits,
  zeroAddress
} from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { loadArtifact } from "../../devnet/Artifacts.js"
import { devnetDefaults } from "../../devnet/DevnetConfig.js"
import { startDevnet } from "../../devnet/startDevnet.js"
import {
  encodeExecute,
  Funding,
  quoteTag,
  type RouterPlan,
  type RouterStep,
  SHARE_ALL,
  StepFlag,
  Venue
} from "../../src/execution/RouterPlan.js"
import { figure } from "./lib/report.js"

const scope = Effect.runSync(Scope.make())
const handle = await Effect.runPromise(
  startDevnet({
    ...devnetDefaults,
    port: 0,
    verbose: false,
    manifestPath: join(tmpdir(), `bench-router-gas-${process.pid}.json`),
    cacheDir: Option.some(".cache/devnet")
  }).pipe(Scope.extend(scope), Effect.provide(NodeContext.layer))
)
const manifest = handle.manifest
const chain = defineChain({
  id: manifest.chainId,
  name: "Arc devnet",
  nativeCurrency: { name: "USDC", symbol: "USDC", decimals: 18 },
  rpcUrls: { default: { http: [manifest.rpcUrl] } }
})
const transport = http(manifest.rpcUrl)
const account = privateKeyToAccount(manifest.accounts[0]!.privateKey as Hex)
const reader = createPublicClient({ chain, transport, pollingInterval: 20 })
const wallet = createWalletClient({ chain, transport, account })
const test = createTestClient({ chain, transport, mode: "anvil" })

const role = (name: string) => getAddress(manifest.contracts[name]!)
const token = (label: string) => getAddress(manifest.tokens![label]!)
const pool = (label: string) => manifest.pools!.find((p) => p.label === label)!
const [USDC, WETH, WBTC] = [token("USDC"), token("WETH"), token("WBTC")]
const router = role("router")
const permit2 = role("permit2")
const deadline = 2n ** 40n

const send = async (to: Address, data: Hex) => {
  const hash = await wallet.sendTransaction({ to, data, gas: 3_000_000n })
  const receipt = await reader.waitForTransactionReceipt({ hash })
  if (receipt.status !== "success") throw new Error(`${to} reverted`)
  return receipt.gasUsed
}

// ---- set-up: the Universal Router from npm, and every approval each router needs ----
const urArtifact = JSON.parse(
  readFileSync(
    "node_modules/@uniswap/universal-router/artifacts/contracts/UniversalRouter.sol/UniversalRouter.json",
    "utf8"
  )
) as { abi: Abi; bytecode: Hex }
const urHash = await wallet.deployContract({
  abi: urArtifact.abi,
  bytecode: urArtifact.bytecode,
  args: [{
    permit2,
    weth9: zeroAddress,
    v2Factory: role("v2Factory"),
    v3Factory: role("v3Factory"),
    pairInitCodeHash: keccak256(loadArtifact("UniswapV2Pair").bytecode),
    poolInitCodeHash: keccak256(loadArtifact("UniswapV3Pool").bytecode),
    v4PoolManager: role("v4PoolManager"),
    v3NFTPositionManager: role("v3PositionManager"),
    v4PositionManager: zeroAddress,
    spokePool: zeroAddress
  }],
  gas: 15_000_000n
})
const universalRouter = getAddress((await reader.waitForTransactionReceipt({ hash: urHash })).contractAddress!)
const v2RouterArtifact = JSON.parse(
  readFileSync("node_modules/@uniswap/v2-periphery/build/UniswapV2Router02.json", "utf8")
) as { abi: Abi; bytecode: Hex }
// Router02 hard-codes the mainnet pair init-code hash, which the v2-core pair the devnet deploys has.
const v2RouterHash = await wallet.deployContract({
  abi: v2RouterArtifact.abi,
  bytecode: v2RouterArtifact.bytecode.startsWith("0x") ? v2RouterArtifact.bytecode : `0x${v2RouterArtifact.bytecode}`,
  args: [role("v2Factory"), zeroAddress],
  gas: 15_000_000n
})
const v2Router = getAddress((await reader.waitForTransactionReceipt({ hash: v2RouterHash })).contractAddress!)
const permit2Abi = parseAbi(["function approve(address token, address spender, uint160 amount, uint48 expiration)"])
for (const asset of [USDC, WETH, WBTC]) {
  for (const spender of [router, v2Router, role("v3SwapRouter"), role("v4SwapHelper"), permit2]) {
    await send(asset, encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [spender, maxUint256] }))
  }
  for (const spender of [universalRouter, router]) {
    await send(
      permit2,
      encodeFunctionData({ abi: permit2Abi, functionName: "approve", args: [asset, spender, 2n ** 160n - 1n, 2 ** 47] })
    )
  }
}

// ---- one encoder per router ----
const step = (label: string, tokenIn: Address, amount: bigint, flags = 0): RouterStep => {
  const p = pool(label)
  const tokenOut = getAddress(p.token0) === tokenIn ? getAddress(p.token1) : getAddress(p.token0)
  return {
    venue: p.venue === "v2" ? Venue.v2 : p.venue === "v3" ? Venue.v3 : Venue.v4,
    flags,
    pool: getAddress(p.address),
    tokenIn,
    tokenOut,
    fee: p.venue === "v2" ? 0 : p.fee ?? 0x800000,
    tickSpacing: p.venue === "v4" ? p.tickSpacing! : 0,
    hooks: getAddress(p.hooks ?? zeroAddress),
    amount,
    limit: 0n
  }
}
const ours = (
  funding: RouterPlan["funding"],
  sell: Address,
  buy: Address,
  amountIn: bigint,
  steps: ReadonlyArray<RouterStep>
) =>
  encodeExecute({
    quoteTag: quoteTag("q_gasbench"),
    sellToken: sell,
    buyToken: buy,
    recipient: account.address,
    funding,
    exactOut: false,
    amountIn,
    minAmountOut: 1n,
    deadline,
    steps
  })

/** `swapExactTokensForTokensSupportingFeeOnTransferTokens` gives the router's own guarantees: output
 * priced from what the pair received, minimum judged on the recipient's balance. */
const v2Swap = (path: ReadonlyArray<Address>, amountIn: bigint, feeOnTransfer = false) =>
  encodeFunctionData({
    abi: v2RouterArtifact.abi,
    functionName: feeOnTransfer ? "swapExactTokensForTokensSupportingFeeOnTransferTokens" : "swapExactTokensForTokens",
    args: [amountIn, 1n, path, account.address, deadline]
  })

const swapRouterAbi = loadArtifact("SwapRouter").abi
const v3Single = (tokenIn: Address, tokenOut: Address, fee: number, amountIn: bigint) =>
  encodeFunctionData({
    abi: swapRouterAbi,
    functionName: "exactInputSingle",
    args: [{
      tokenIn,
      tokenOut,
      fee,
      recipient: account.address,
      deadline,
      amountIn,
      amountOutMinimum: 1n,
      sqrtPriceLimitX96: 0n
    }]
  })
const v3Path = (path: Hex, amountIn: bigint) =>
  encodeFunctionData({
    abi: swapRouterAbi,
    functionName: "exactInput",
    args: [{ path, recipient: account.address, deadline, amountIn, amountOutMinimum: 1n }]
  })

const poolKey = (label: string) => {
  const p = pool(label)
  return {
    currency0: getAddress(p.token0),
    currency1: getAddress(p.token1),
    fee: p.fee ?? 0x800000,
    tickSpacing: p.tickSpacing!,
    hooks: getAddress(p.hooks ?? zeroAddress)
  }
}
const swapTest = (label: string, tokenIn: Address, amountIn: bigint) => {
  const zeroForOne = getAddress(pool(label).token0) === tokenIn
  return encodeFunctionData({
    abi: loadArtifact("PoolSwapTest").abi,
    functionName: "swap",
    args: [
      poolKey(label),
      {
        zeroForOne,
        amountSpecified: -amountIn,
        sqrtPriceLimitX96: zeroForOne ? 4295128740n : 1461446703485210103287273052203988822378723970341n
      },
      { takeClaims: false, settleUsingBurn: false },
      "0x"
    ]
  })
}

/** Universal Router commands with payerIsUser (its funds come through Permit2). */
const ur = {
  v2: (path: ReadonlyArray<Address>, amountIn: bigint) => ({
    command: 0x08,
    input: encodeAbiParameters(
      [{ type: "address" }, { type: "uint256" }, { type: "uint256" }, { type: "address[]" }, { type: "bool" }],
      [account.address, amountIn, 1n, path, true]
    )
  }),
  v3: (path: Hex, amountIn: bigint) => ({
    command: 0x00,
    input: encodeAbiParameters(
      [{ type: "address" }, { type: "uint256" }, { type: "uint256" }, { type: "bytes" }, { type: "bool" }],
      [account.address, amountIn, 1n, path, true]
    )
  }),
  v4: (label: string, tokenIn: Address, tokenOut: Address, amountIn: bigint) => {
    const keyType = {
      type: "tuple",
      components: [
        { name: "currency0", type: "address" },
        { name: "currency1", type: "address" },
        { name: "fee", type: "uint24" },
        { name: "tickSpacing", type: "int24" },
        { name: "hooks", type: "address" }
      ]
    } as const
    const swap = encodeAbiParameters([{
      type: "tuple",
      components: [
        { name: "poolKey", ...keyType },
        { name: "zeroForOne", type: "bool" },
        { name: "amountIn", type: "uint128" },
        { name: "amountOutMinimum", type: "uint128" },
        { name: "hookData", type: "bytes" }
      ]
    }], [{
      poolKey: poolKey(label),
      zeroForOne: getAddress(pool(label).token0) === tokenIn,
      amountIn,
      amountOutMinimum: 1n,
      hookData: "0x"
    }])
    const settle = encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [tokenIn, amountIn])
    const take = encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [tokenOut, 1n])
    return {
      command: 0x10,
      input: encodeAbiParameters([{ type: "bytes" }, { type: "bytes[]" }], ["0x060c0f", [swap, settle, take]])
    }
  }
}
const urExecute = (parts: ReadonlyArray<{ command: number; input: Hex }>) =>
  encodeFunctionData({
    abi: urArtifact.abi,
    functionName: "execute",
    args: [encodePacked(parts.map(() => "uint8"), parts.map((p) => p.command)), parts.map((p) => p.input), deadline]
  })

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

const balance = (asset: Address) =>
  reader.readContract({ address: asset, abi: erc20Abi, functionName: "balanceOf", args: [account.address] })

console.log(`   ${"case / contender".padEnd(46)} ${"gas".padStart(8)}  ratio`)
for (const c of cases) {
  const results: Array<{ name: string; gas: bigint; out: bigint }> = []
  for (const contender of c.contenders) {
    const snapshot = await test.snapshot()
    const before = await balance(c.buy)
    const gas = await send(contender.to, contender.data)
    results.push({ name: contender.name, gas, out: (await balance(c.buy)) - before })
    await test.revert({ id: snapshot })
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

await Effect.runPromise(Scope.close(scope, Exit.void))
