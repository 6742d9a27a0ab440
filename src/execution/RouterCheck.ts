/**
 * Start-up check of the router against the venue file: a plan names its venue by index in the router's
 * table, so a router deployed for another file (other venues, another order, another fee rule) would
 * execute a step on the wrong venue or refuse every pool; and the router spends Permit2 allowances at
 * the Permit2 it was deployed with, so one built for another Permit2 would fail every permit the service
 * has takers sign for the file's. A router of another plan encoding cannot read the calldata the service
 * sends, nor emit the event its receipts look for. The service refuses to start, naming the encodings, the
 * first entry that differs (`venueTableMismatch`) or both Permit2 addresses; an RPC that does not answer
 * leaves it unchecked, as the venue file's own checks do (layers/VenueChecks.ts).
 */
import { Effect, Layer } from "effect"
import {
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  getAddress,
  isAddressEqual
} from "viem"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { Deployment, VenueFileRefused } from "../../layers/Deployment.js"
import type { RpcUnavailable } from "../../schema/Errors.js"
import { venueTableMismatch } from "../../schema/VenueTable.js"
import { readVenueTable } from "./DeployedVenueTable.js"
import { PLAN_ENCODING, routerAbi } from "./RouterAbi.js"

/** A contract that reverts or answers nothing to the getter has none: a router of the first encoding. */
const noAnswer = (error: unknown) =>
  error instanceof BaseError &&
  error.walk((cause) =>
      cause instanceof ContractFunctionRevertedError || cause instanceof ContractFunctionZeroDataError
    ) !== null

const unchecked = <A>(read: Effect.Effect<A, RpcUnavailable>) =>
  read.pipe(
    Effect.tapError((error) =>
      Effect.logWarning(`router not checked: it did not read (${error.hint ?? error.message})`)
    ),
    Effect.option
  )

export const checkedRouter = <E, R>(deployment: Layer.Layer<Deployment, E, R>) =>
  Layer.effect(
    Deployment,
    Effect.gen(function*() {
      const shape = yield* Deployment
      const router = shape.venues.router
      if (router === undefined) return shape
      const rpc = ChainRpc.make({ rpcUrl: shape.rpcUrl, chainId: shape.chainId })
      const encoding = yield* rpc.use("RouterCheck.encoding", (client) =>
        client.readContract({ address: router, abi: routerAbi, functionName: "PLAN_ENCODING" }).catch((error) =>
          noAnswer(error) ? undefined : Promise.reject(error)
        )).pipe(unchecked)
      if (encoding._tag === "None") {
        return shape
      }
      if (encoding.value !== PLAN_ENCODING) {
        return yield* new VenueFileRefused({
          message:
            `router ${getAddress(router)}: its plan encoding is ${encoding.value ?? "the first (no PLAN_ENCODING)"}, ` +
            `this service sends encoding ${PLAN_ENCODING}; deploy a router of this version (npm run deploy-router)`
        })
      }
      const deployed = yield* rpc.use("RouterCheck.read", (client) =>
        Promise.all([
          readVenueTable(client, router),
          client.readContract({ address: router, abi: routerAbi, functionName: "permit2" })
        ])).pipe(unchecked)
      if (deployed._tag === "None") {
        return shape
      }
      const [table, permit2] = deployed.value
      const mismatch = venueTableMismatch(shape.venues, table)
      if (mismatch !== undefined) {
        return yield* new VenueFileRefused({
          message: `router ${getAddress(router)}: ${mismatch}; deploy a router for this file (npm run deploy-router)`
        })
      }
      if (!isAddressEqual(permit2, shape.venues.permit2)) {
        return yield* new VenueFileRefused({
          message: `router ${getAddress(router)}: it was deployed for Permit2 ${getAddress(permit2)}, the venue ` +
            `file names Permit2 ${
              getAddress(shape.venues.permit2)
            }; deploy a router for the file's Permit2 (npm run deploy-router)`
        })
      }
      yield* Effect.logInfo(`router ${router} checked: its venue table and Permit2 are the venue file's`)
      return shape
    })
  ).pipe(Layer.provide(deployment))
