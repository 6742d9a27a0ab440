/**
 * Start-up check of the router against the venue file: a plan names its venue by index in the router's
 * table, so a router deployed for another file (other venues, another order, another fee rule) would
 * execute a step on the wrong venue or refuse every pool; and the router spends Permit2 allowances at
 * the Permit2 it was deployed with, so one built for another Permit2 would fail every permit the service
 * has takers sign for the file's. The service refuses to start, naming the first entry that differs
 * (`venueTableMismatch`) or both Permit2 addresses; an RPC that does not answer leaves it unchecked, as
 * the venue file's own checks do (layers/VenueChecks.ts).
 */
import { Effect, Layer } from "effect"
import { getAddress, isAddressEqual } from "viem"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { Deployment, VenueFileRefused } from "../../layers/Deployment.js"
import { venueTableMismatch } from "../../schema/VenueTable.js"
import { readVenueTable } from "./DeployedVenueTable.js"
import { routerAbi } from "./RouterAbi.js"

export const checkedRouter = <E, R>(deployment: Layer.Layer<Deployment, E, R>) =>
  Layer.effect(
    Deployment,
    Effect.gen(function*() {
      const shape = yield* Deployment
      const router = shape.venues.router
      if (router === undefined) return shape
      const rpc = ChainRpc.make({ rpcUrl: shape.rpcUrl, chainId: shape.chainId })
      const deployed = yield* rpc.use("RouterCheck.read", (client) =>
        Promise.all([
          readVenueTable(client, router),
          client.readContract({ address: router, abi: routerAbi, functionName: "permit2" })
        ])).pipe(
          Effect.tapError((error) =>
            Effect.logWarning(`router not checked: it did not read (${error.hint ?? error.message})`)
          ),
          Effect.option
        )
      if (deployed._tag === "None") return shape
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
