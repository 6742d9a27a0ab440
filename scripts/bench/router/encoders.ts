/**
 * One calldata encoder per router in the gas benchmark: ours (through src/execution/RouterPlan.ts),
 * Uniswap's v2 Router02 and v3 SwapRouter, v4-core's PoolSwapTest, and the Universal Router's commands
 * (V2_SWAP_EXACT_IN, V3_SWAP_EXACT_IN, V3_SWAP_EXACT_OUT, V4_SWAP with SWAP_EXACT_IN_SINGLE + SETTLE_ALL +
 * TAKE_ALL).
 */
import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  getAddress,
  type Hex,
  zeroAddress
} from "viem"
import { loadArtifact } from "../../../devnet/Artifacts.js"
import { DevnetVenue } from "../../../devnet/router.js"
import { encodeExecute, quoteTag, type RouterPlan, type RouterStep } from "../../../src/execution/RouterPlan.js"
import { account, deadline, pool, urArtifact, v2RouterArtifact } from "./stage.js"

// ---- one encoder per router ----
/** The v2 forks' pools, named by their labels' venue prefix; the rest by the manifest's venue kind. */
const v2Forks: Readonly<Record<string, number>> = {
  "lowfee-v2": DevnetVenue.lowFeeV2,
  "pairfee-v2": DevnetVenue.pairFeeV2
}

export const step = (label: string, tokenIn: Address, amount: bigint, flags = 0): RouterStep => {
  const p = pool(label)
  const tokenOut = getAddress(p.token0) === tokenIn ? getAddress(p.token1) : getAddress(p.token0)
  return {
    venue: v2Forks[label.split(":")[0]!] ??
      (p.venue === "v2" ? DevnetVenue.v2 : p.venue === "v3" ? DevnetVenue.v3 : DevnetVenue.v4),
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
/** `exactOut`: the amount to buy (then `amountIn` is the most to spend). */
export const ours = (
  funding: RouterPlan["funding"],
  sell: Address,
  buy: Address,
  amountIn: bigint,
  steps: ReadonlyArray<RouterStep>,
  exactOut?: bigint
) =>
  encodeExecute({
    quoteTag: quoteTag("q_gasbench"),
    sellToken: sell,
    buyToken: buy,
    recipient: account.address,
    funding,
    exactOut: exactOut !== undefined,
    amountIn,
    minAmountOut: exactOut ?? 1n,
    deadline,
    steps
  })

/** `swapExactTokensForTokensSupportingFeeOnTransferTokens` gives the router's own guarantees: output
 * priced from what the pair received, minimum judged on the recipient's balance. */
export const v2Swap = (path: ReadonlyArray<Address>, amountIn: bigint, feeOnTransfer = false) =>
  encodeFunctionData({
    abi: v2RouterArtifact.abi,
    functionName: feeOnTransfer ? "swapExactTokensForTokensSupportingFeeOnTransferTokens" : "swapExactTokensForTokens",
    args: [amountIn, 1n, path, account.address, deadline]
  })

export const v2SwapOut = (path: ReadonlyArray<Address>, amountOut: bigint, amountInMax: bigint) =>
  encodeFunctionData({
    abi: v2RouterArtifact.abi,
    functionName: "swapTokensForExactTokens",
    args: [amountOut, amountInMax, path, account.address, deadline]
  })

const swapRouterAbi = loadArtifact("SwapRouter").abi
export const v3Single = (tokenIn: Address, tokenOut: Address, fee: number, amountIn: bigint) =>
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
export const v3Path = (path: Hex, amountIn: bigint) =>
  encodeFunctionData({
    abi: swapRouterAbi,
    functionName: "exactInput",
    args: [{ path, recipient: account.address, deadline, amountIn, amountOutMinimum: 1n }]
  })

/** `path` from the output back to the input, as exact-output paths are written. */
export const v3PathOut = (path: Hex, amountOut: bigint, amountInMaximum: bigint) =>
  encodeFunctionData({
    abi: swapRouterAbi,
    functionName: "exactOutput",
    args: [{ path, recipient: account.address, deadline, amountOut, amountInMaximum }]
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
export const swapTest = (label: string, tokenIn: Address, amountIn: bigint) => {
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
export const ur = {
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
  /** V3_SWAP_EXACT_OUT; `path` from the output back to the input. */
  v3Out: (path: Hex, amountOut: bigint, amountInMaximum: bigint) => ({
    command: 0x01,
    input: encodeAbiParameters(
      [{ type: "address" }, { type: "uint256" }, { type: "uint256" }, { type: "bytes" }, { type: "bool" }],
      [account.address, amountOut, amountInMaximum, path, true]
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
export const urExecute = (parts: ReadonlyArray<{ command: number; input: Hex }>) =>
  encodeFunctionData({
    abi: urArtifact.abi,
    functionName: "execute",
    args: [encodePacked(parts.map(() => "uint8"), parts.map((p) => p.command)), parts.map((p) => p.input), deadline]
  })
