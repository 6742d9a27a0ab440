/**
 * What a taker's wallet holds and has allowed, read at one block in one batched round trip: what
 * `quote` readiness judges and what `swap` builds its approvals from. Nothing is reserved.
 */
import { Effect } from "effect"
import { type Address, parseAbi } from "viem"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { NATIVE_PER_USDC_UNIT } from "../../schema/Chain.js"

const erc20 = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function allowance(address owner, address spender) view returns (uint256)"
])
const permit2Abi = parseAbi([
  "function allowance(address user, address token, address spender) view returns (uint160 amount, uint48 expiration, uint48 nonce)"
])

export interface TakerWalletQuery {
  readonly taker: Address
  readonly sellToken: Address
  readonly usdc: Address
  readonly router: Address | undefined
  readonly permit2: Address | undefined
  readonly block: bigint
}

/** Permit2's allowance of the sell token for the router: amount, expiry (unix s, 0 = none) and nonce. */
export interface Permit2Allowance {
  readonly amount: bigint
  readonly expiration: number
  readonly nonce: number
}

export interface TakerWallet {
  readonly nativeWei: bigint
  readonly sellBalance: bigint
  /** The ERC-20 USDC balance (the fee payer's currency); the sell balance when USDC is sold. */
  readonly usdcBalance: bigint
  readonly allowanceToPermit2: bigint
  readonly allowanceToRouter: bigint
  readonly permit2: Permit2Allowance
  /** Whether the address has code (a contract, or an EIP-7702 delegation): it cannot send directly. */
  readonly hasCode: boolean
}

export const readTakerWallet = Effect.fn("TakerWallet.read")(function*(query: TakerWalletQuery) {
  const rpc = yield* ChainRpc
  const { block: blockNumber, taker } = query
  const allowance = (spender: Address | undefined) =>
    spender === undefined ? Effect.succeed(0n) : rpc.use("allowance", (c) =>
      c.readContract({
        address: query.sellToken,
        abi: erc20,
        functionName: "allowance",
        args: [taker, spender],
        blockNumber
      }))
  const balanceOf = (token: Address) =>
    rpc.use(
      "balanceOf",
      (c) => c.readContract({ address: token, abi: erc20, functionName: "balanceOf", args: [taker], blockNumber })
    )
  const sellsUsdc = query.sellToken.toLowerCase() === query.usdc.toLowerCase()
  const [nativeWei, sellBalance, usdcBalance, allowanceToPermit2, allowanceToRouter, permit2, code] = yield* Effect.all(
    [
      rpc.use("getBalance", (c) => c.getBalance({ address: taker, blockNumber })),
      balanceOf(query.sellToken),
      sellsUsdc ? Effect.succeed(undefined) : balanceOf(query.usdc),
      allowance(query.permit2),
      allowance(query.router),
      query.permit2 === undefined || query.router === undefined
        ? Effect.succeed(undefined)
        : rpc.use("permit2.allowance", (c) =>
          c.readContract({
            address: query.permit2!,
            abi: permit2Abi,
            functionName: "allowance",
            args: [taker, query.sellToken, query.router!],
            blockNumber
          })),
      rpc.use("getCode", (c) => c.getCode({ address: taker, blockNumber }))
    ],
    { concurrency: "unbounded" }
  )
  const wallet: TakerWallet = {
    nativeWei,
    sellBalance,
    usdcBalance: usdcBalance ?? sellBalance,
    allowanceToPermit2,
    allowanceToRouter,
    permit2: permit2 === undefined
      ? { amount: 0n, expiration: 0, nonce: 0 }
      : { amount: permit2[0], expiration: permit2[1], nonce: permit2[2] },
    hasCode: code !== undefined && code !== "0x"
  }
  return wallet
})

/** Whether Permit2 lets the router take `amount` at `nowSec` without a new signature. */
export const permit2Covers = (allowance: Permit2Allowance, amount: bigint, nowSec: number) =>
  allowance.amount >= amount && allowance.expiration > nowSec

/**
 * Whether a USDC sell is paid with native value instead of the ERC-20: when the native balance covers
 * the amount and the swap's gas, nothing needs approving or signing at all.
 */
export const fundsNatively = (wallet: TakerWallet, sellsUsdc: boolean, spend: bigint, swapGasWei: bigint) =>
  sellsUsdc && wallet.nativeWei >= spend * NATIVE_PER_USDC_UNIT + swapGasWei
