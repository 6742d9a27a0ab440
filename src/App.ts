/**
 * The whole service as one layer, given where its chain is. Used by `main.ts`, by tests and by
 * programs that embed the service.
 */
import { NodeContext } from "@effect/platform-node"
import { Layer } from "effect"
import { AppConfig } from "../layers/AppConfig.js"
import { ChainRpc } from "../layers/ChainRpc.js"
import type { Deployment } from "../layers/Deployment.js"
import { PaymentGate } from "../layers/PaymentGate.js"
import { QuoteStoreLive } from "../layers/RedisQuoteStore.js"
import { Simulator } from "../layers/Simulator.js"
import { Tracing } from "../layers/Tracing.js"
import { Venues } from "../layers/Venues.js"
import { HttpAppLive, ServerLive } from "./http/Server.js"
import { Launchpads } from "./indexer/Launchpads.js"
import { Drain } from "./operations/Drain.js"
import { StartTime } from "./operations/StartTime.js"
import { GasPrice } from "./quote/GasPrice.js"
import { HookedPools } from "./quote/HookedPools.js"
import { TaxedHubs } from "./quote/TaxedHubs.js"
import { SafetyCheck } from "./safety/check/SafetyCheck.js"
import { TokenMeasure } from "./safety/MeasureToken.js"
import { OwnerPowers } from "./safety/powers/OwnerPowers.js"
import { SafetyScan } from "./safety/Scan.js"
import { StateChanges } from "./safety/StateChanges.js"
import { VerdictBook } from "./safety/VerdictBook.js"
import { IndexLive } from "./search/IndexLive.js"

/** Every service the operations need, given where the chain is. */
export const AppServices = <E, R>(deployment: Layer.Layer<Deployment, E, R>) =>
  Layer.mergeAll(SafetyScan.Default, TaxedHubs.Default).pipe(
    Layer.provideMerge(Layer.mergeAll(VerdictBook.Default, TokenMeasure.Default)),
    // The owner powers keep a scan while the block traces show no write to what it read.
    Layer.provideMerge(Layer.mergeAll(SafetyCheck.Default, OwnerPowers.Default)),
    Layer.provideMerge(Layer.mergeAll(StateChanges.Default, GasPrice.Default)),
    Layer.provideMerge(Layer.mergeAll(
      IndexLive,
      StartTime.Default,
      Drain.Default,
      PaymentGate.Default,
      HookedPools.Default,
      Launchpads.Default,
      QuoteStoreLive,
      Simulator.Default
    )),
    Layer.provideMerge(Layer.mergeAll(ChainRpc.Default, Venues.Default)),
    Layer.provideMerge(deployment),
    Layer.provideMerge(AppConfig.Default),
    Layer.provideMerge(NodeContext.layer)
  )

/** The HTTP service listening on `PORT`, its spans exported when an OTLP endpoint is set. */
export const appWith = <E, R>(deployment: Layer.Layer<Deployment, E, R>) =>
  ServerLive.pipe(Layer.provide(AppServices(deployment)), Layer.provide(Tracing))

/** The HTTP routes without a socket, for `NodeHttpServer.layerTest`. */
export const appRoutesWith = <E, R>(deployment: Layer.Layer<Deployment, E, R>) =>
  HttpAppLive.pipe(Layer.provide(AppServices(deployment)), Layer.provide(Tracing))
