/**
 * The launchpad's constants (`virtualUsdc`, `graduationUsdc`, `CURVE_SUPPLY`), read once: they are
 * immutable in the contract, and with the index's curve flows they price every launched token's curve
 * without a chain read per request.
 */
import { Effect, Ref } from "effect"
import { parseAbi } from "viem"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { Deployment } from "../../layers/Deployment.js"
import type { LaunchpadConstants } from "../math/LaunchpadCurve.js"

const constantsAbi = parseAbi([
  "function virtualUsdc() view returns (uint256)",
  "function graduationUsdc() view returns (uint256)",
  "function CURVE_SUPPLY() view returns (uint256)"
])

/** Launchpad ids as the index records them (see Sources.ts): the deployment role. */
const LAUNCHPAD_ID = "launchpad"

export class Launchpads extends Effect.Service<Launchpads>()("Launchpads", {
  effect: Effect.gen(function*() {
    const rpc = yield* ChainRpc
    const deployment = yield* Deployment
    const address = deployment.contracts["launchpad"]
    const read = Effect.fn("Launchpads.read")(function*(launchpad: `0x${string}`) {
      const call = (functionName: "virtualUsdc" | "graduationUsdc" | "CURVE_SUPPLY") =>
        rpc.use(
          `launchpad.${functionName}`,
          (client) => client.readContract({ address: launchpad, abi: constantsAbi, functionName })
        )
      const [virtualUsdc, graduationUsdc, curveSupply] = yield* Effect.all(
        [call("virtualUsdc"), call("graduationUsdc"), call("CURVE_SUPPLY")],
        { concurrency: 3 }
      )
      return { virtualUsdc, graduationUsdc, curveSupply } satisfies LaunchpadConstants
    })
    const known = yield* Ref.make<ReadonlyMap<string, LaunchpadConstants> | undefined>(
      address === undefined ? new Map() : undefined
    )
    const load = Effect.gen(function*() {
      const cached = yield* Ref.get(known)
      if (cached !== undefined) return cached
      const constants = new Map([[LAUNCHPAD_ID, yield* read(address!)]])
      yield* Ref.set(known, constants)
      return constants as ReadonlyMap<string, LaunchpadConstants>
    })
    // Read at start-up; a node that does not answer yet is asked again by the first request.
    yield* Effect.ignore(load)
    return {
      /** Launchpad id → constants; fails only while the node has never answered. */
      constants: load
    }
  })
}) {}
