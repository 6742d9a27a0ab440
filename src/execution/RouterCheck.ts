/**
 * Start-up check of the router against the venue file: a plan names its venue by index in the router's
 * table, so a router deployed for another file (other venues, another order, another fee rule) would
 * execute a step on the wrong venue or refuse every pool. The service refuses to start, naming the first
 * entry that differs (`venueTableMismatch`); an RPC that does not answer leaves it unchecked, as the
 * venue file's own checks do (layers/VenueChecks.ts).
 */
import { Effect, Layer } from "effect"
import { createPublicClient, http } from "viem"
import { Deployment, VenueFileRefused } from "../../layers/Deployment.js"
import { venueTableMismatch } from "../../schema/VenueTable.js"
import { readVenueTable } from "./DeployedVenueTable.js"

export const checkedRouter = <E, R>(deployment: Layer.Layer<Deployment, E, R>) =>
  Layer.effect(
    Deployment,
    Effect.gen(function*() {
      const shape = yield* Deployment
      const router = shape.venues.router
      if (router === undefined) return shape
      const client = createPublicClient({ transport: http(shape.rpcUrl) })
      const table = yield* Effect.tryPromise(() => readVenueTable(client, router)).pipe(
        Effect.tapError((cause) => Effect.logWarning(`router not checked: its venue table did not read (${cause})`)),
        Effect.option
      )
      if (table._tag === "None") return shape
      const mismatch = venueTableMismatch(shape.venues, table.value)
      if (mismatch !== undefined) {
        return yield* new VenueFileRefused({ message: `router ${router}: ${mismatch}` })
      }
      yield* Effect.logInfo(`router ${router} checked: its venue table is the venue file's`)
      return shape
    })
  ).pipe(Layer.provide(deployment))
