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
import { LAB, labAbi, NOWHERE, OPERATOR, READ, REVERTED, SEEN, shadowOf, STRANGER, VICTIM } from "./Lab.js"
import { calldataOf, shapesFor } from "./Shapes.js"

export interface Trial {
  readonly selector: Hex
  readonly shape: string
  readonly caller: Address
}

const decodeSeen = (data: Hex) => decodeAbiParameters(SEEN, data)[0]
export type Seen = ReturnType<typeof decodeSeen>

const NO_SELL = { ok: false, sent: 0n, received: 0n }
/** A call that was a read or reverted: all the judge reads of it (it shows nothing). */
const shown = (readOnly: boolean): Seen => ({
  readOnly,
  ok: false,
  supplyBefore: 0n,
  supplyAfter: 0n,
  before: [],
  afterwards: [],
  some: NO_SELL,
  all: NO_SELL
})
const SHOWN_NOTHING: Readonly<Record<Hex, Seen>> = { [READ]: shown(true), [REVERTED]: shown(false) }

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

type Planned = Trial & { readonly data: Hex; readonly rank: number }

/**
 * The trials as the lab runs them: the baseline, then per function and arguments one group, each
 * candidate's call and last the stranger's twin (the lab runs a twin only where its group showed
 * something), groups never split across transactions.
 */
const batchesOf = (groups: ReadonlyArray<ReadonlyArray<Planned>>, baseline: Planned) => {
  const batches: Array<Array<Planned>> = [[baseline]]
  for (const group of groups) {
    const last = batches[batches.length - 1]!
    if (last.length + group.length > BATCH) batches.push([...group])
    else last.push(...group)
  }
  return batches
}

/**
 * The probe's one simulation, built from here: the lab's and the puppets' code (each account's own moved
 * to its shadow), the victim funded, then every trial in batches. `originals`: each puppet's code.
 */
const simulateTrials = (
  simulator: Simulator["Type"],
  input: ProbeInput,
  puppets: ReadonlyArray<Address>,
  originals: ReadonlyArray<Hex | undefined>
) => {
  const code = [
    { address: LAB, code: input.code.lab },
    ...puppets.map((address) => ({ address, code: input.code.puppet })),
    ...puppets.flatMap((address, i) => {
      const original = originals[i]
      return original === undefined || original === "0x" ? [] : [{ address: shadowOf(address), code: original }]
    })
  ]
  const watch = [VICTIM, input.pool, STRANGER, ...input.callers, input.token]
  const setup = { token: input.token, pool: input.pool, victim: VICTIM, stranger: STRANGER, watch }
  // The baseline first: no call, the victim's sells as they are.
  const baseline: Planned = { selector: "0x", shape: "", caller: STRANGER, data: "0x", rank: 0 }
  // Ranked as judged (per caller, stranger first; per function; per arguments), run grouped by call.
  const groups = new Map<string, Array<Planned>>()
  let rank = 1
  for (const caller of [STRANGER, ...input.callers]) {
    const shapes = shapesFor({ victim: VICTIM, pool: input.pool, nowhere: NOWHERE, caller })
    for (const selector of input.selectors) {
      for (const shape of shapes) {
        const key = `${selector}${shape.label}`
        const group = groups.get(key) ?? []
        const trial = { selector, shape: shape.label, caller, data: calldataOf(selector, shape.words), rank: rank++ }
        // The stranger's twin closes its group.
        if (caller === STRANGER) groups.set(key, [trial])
        else group.splice(group.length - 1, 0, trial)
      }
    }
  }
  const batches = batchesOf([...groups.values()], baseline)
  const call = (data: Hex, gas: bigint) => ({ from: OPERATOR, to: LAB, data, gas })
  return Effect.map(
    simulator.simulate({
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
    }),
    (simulated) => ({ batches, simulated })
  )
}

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
  // The request (the code and the encoded trials) is built once the scan's lane gives this probe its
  // turn, not held while it waits there.
  const results = yield* simulator.inTurn(Effect.suspend(() => simulateTrials(simulator, input, puppets, originals)))
  const observed: Array<Observed & { readonly rank: number }> = []
  results.batches.forEach((batch, b) => {
    const result = results.simulated[b + 1]?.[0]
    if (result === undefined || !result.ok) return
    const carried = decodeFunctionResult({ abi: labAbi, functionName: "trials", data: result.returnData })
    batch.forEach((trial, i) => {
      const data = carried[i]
      // Empty: not run (past the gas left, or a twin its group did not need).
      const seen = data === undefined ? undefined : SHOWN_NOTHING[data] ??
        (data.length < 2 + 64 * 8 ? undefined : decodeSeen(data))
      if (seen === undefined) return
      observed.push({
        trial: { selector: trial.selector, shape: trial.shape, caller: trial.caller },
        seen,
        rank: trial.rank
      })
    })
  })
  // The judge keeps the first trial that shows a power: the order it always judged in.
  observed.sort((a, b) => a.rank - b.rank)
  return observed.map(({ rank: _, ...o }) => o)
})
