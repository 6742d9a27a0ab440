/**
 * Handlers of the HTTP contract: each operation of the table through the interpreter (./Serve.ts),
 * and the two documents as plain routes. The compiler refuses a group that leaves an endpoint without
 * its handler, so an operation added to the table must be served here too.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { registration } from "../operations/registration.js"
import { Health, Quote, Search, Venues } from "../operations/table.js"
import { Receipt, Swap, SwapTx } from "../operations/tableSwap.js"
import { Api } from "./Api.js"
import { fixedPrices, openApiDocument } from "./OpenApiDocument.js"
import { getHandler, postHandler } from "./Serve.js"

export const SystemHandlers = HttpApiBuilder.group(Api, "system", (handlers) =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    // The document is the same for every call: the configured prices are read once.
    const document = openApiDocument(AppConfig.baseUrl(config), yield* fixedPrices)
    return handlers
      .handle("health", getHandler(Health))
      .handle("openapi", () => Effect.succeed(document))
      .handle("registration", () => registration())
  }))

export const TradeHandlers = HttpApiBuilder.group(Api, "trade", (handlers) =>
  handlers
    .handle("venues", getHandler(Venues))
    .handle("search", postHandler(Search))
    .handle("quote", postHandler(Quote))
    .handle("swap", postHandler(Swap))
    .handle("swapTx", postHandler(SwapTx))
    .handle("receipt", postHandler(Receipt)))
