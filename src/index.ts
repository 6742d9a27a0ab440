/**
 * The library entry: embed the service in an Effect program through its layers, or call its
 * operations directly with the services they name in their types.
 */
export { Devnet } from "../devnet/Devnet.js"
export { AppConfig } from "../layers/AppConfig.js"
export { ChainRpc } from "../layers/ChainRpc.js"
export { CheckpointStore } from "../layers/CheckpointStore.js"
export { Deployment } from "../layers/Deployment.js"
export { defaultPrices, priceTableConfig, swapPrice } from "../layers/payment/Prices.js"
export { AuthorizationLedger, PaymentGate, SubmittedPayment } from "../layers/PaymentGate.js"
export { Venues } from "../layers/Venues.js"
export * as Errors from "../schema/Errors.js"
export { errorTable } from "../schema/ErrorTable.js"
export { appRoutesWith, AppServices, appWith } from "./App.js"
export { ChainIndex } from "./indexer/ChainIndex.js"
export { Indexer } from "./indexer/Indexer.js"
export { health } from "./operations/health.js"
export { Cost, type Operation, priceOf } from "./operations/Operation.js"
export { search } from "./operations/search.js"
export { operations } from "./operations/table.js"
export { venues } from "./operations/venues.js"
export { TokenSearch } from "./search/TokenSearch.js"
