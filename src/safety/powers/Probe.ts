/**
 * The scan's one `eth_simulateV1` request: the lab (./Lab.ts) stands at a fresh address, every account
 * the scan calls as carries the puppet's code (its own moved aside), a fresh victim is handed a small
 * part of the pool's tokens, and then every (function, arguments, caller) trial runs, each undone after
 * it was observed, in batches of one transaction a block.
 */
import { Effect } from "effect"
import { type Address, decodeAbiParameters, decodeFunctionResult, encodeFunctionData, type Hex } from "viem"
import { ChainRpc } from "../../../layers/ChainRpc.js"
import { Simulator } from "../../../layers/Simulator.js"
import { LAB, labAbi, NOWHERE, OPERATOR, SEEN, shadowOf, STRANGER, VICTIM } from "./Lab.js"
import { calldataOf, shapesFor } from "./Shapes.js"

export interface Trial {
  readonly selector: Hex
  readonly shape: string
  readonly caller: Address
}

const decodeSeen = (data: Hex) => decodeAbiParameters(SEEN, data)[0]
export type Seen = ReturnType<typeof decodeSeen>

export interface Observed {
  readonly trial: Trial
  readonly seen: Seen
}

export interface ProbeInput {
  readonly token: Address
  readonly pool: Address
  readonly block: bigint
  readonly selectors: ReadonlyArray<Hex>
  /** Addresses that may hold a power; the stranger is added by the probe. */
  readonly callers: ReadonlyArray<Address>
  readonly code: { readonly lab: Hex; readonly puppet: Hex }
}

/** Trials per transaction: each capped at 1.5 M gas by the lab, most revert at once (about 60 k gas a trial on average). */
const BATCH = 160
const BATCH_GAS = 28_000_000n

export const runProbe = Effect.fn("Powers.probe")(function*(input: ProbeInput) {
  const rpc = yield* ChainRpc
  const simulator = yield* Simulator
  const puppets = [input.pool, VICTIM, STRANGER, ...input.callers]
  const originals = yield* Effect.all(
    puppets.map((address) =>
      Effect.orElseSucceed(
        rpc.use("getCode", (c) => c.getCode({ address, blockNumber: input.block })),
        () => undefined
      )
    ),
    { concurrency: "unbounded" }
  )
  const code = [
    { address: LAB, code: input.code.lab },
    ...puppets.map((address) => ({ address, code: input.code.puppet })),
    ...puppets.flatMap((address, i) => {
      const original = originals[i]
      return original === undefined || original === "0x" ? [] : [{ address: shadowOf(address), code: original }]
    })
  ]
  const watch = [VICTIM, input.pool, STRANGER, ...input.callers, input.token]
  const setup = { token: input.token, pool: input.pool, victim: VICTIM, watch }
  // The baseline first: no call, the victim's sells as they are.
  const trials: Array<Trial & { readonly data: Hex }> = [{ selector: "0x", shape: "", caller: STRANGER, data: "0x" }]
  for (const caller of [STRANGER, ...input.callers]) {
    const shapes = shapesFor({ victim: VICTIM, pool: input.pool, nowhere: NOWHERE, caller })
    for (const selector of input.selectors) {
      for (const shape of shapes) {
        trials.push({ selector, shape: shape.label, caller, data: calldataOf(selector, shape.words) })
      }
    }
  }
  const batches: Array<typeof trials> = []
  for (let i = 0; i < trials.length; i += BATCH) batches.push(trials.slice(i, i + BATCH))
  const call = (data: Hex, gas: bigint) => ({ from: OPERATOR, to: LAB, data, gas })
  const results = yield* simulator.simulate({
    block: input.block,
    balances: [{ address: OPERATOR, wei: 10n ** 24n }],
    code,
    blocks: [
      [call(
        encodeFunctionData({
          abi: labAbi,
          functionName: "fund",
          args: [input.token, [input.pool, ...input.callers], VICTIM]
        }),
        3_000_000n
      )],
      ...batches.map((batch) => [
        call(
          encodeFunctionData({
            abi: labAbi,
            functionName: "trials",
            args: [setup, batch.map((t) => t.caller), batch.map((t) => t.data)]
          }),
          BATCH_GAS
        )
      ])
    ]
  })
  const observed: Array<Observed> = []
  batches.forEach((batch, b) => {
    const result = results[b + 1]?.[0]
    if (result === undefined || !result.ok) return
    const carried = decodeFunctionResult({ abi: labAbi, functionName: "trials", data: result.returnData })
    batch.forEach((trial, i) => {
      const data = carried[i]
      if (data === undefined || data.length < 2 + 64 * 8) return
      observed.push({
        trial: { selector: trial.selector, shape: trial.shape, caller: trial.caller },
        seen: decodeSeen(data)
      })
    })
  })
  return observed
})
