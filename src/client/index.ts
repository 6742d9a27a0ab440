/**
 * `trade-checkpoint/client`: the client for agents (docs/agents.md). Nothing here loads the server.
 */
export { BudgetExceeded, type BudgetLimits } from "./Budget.js"
export { type Paid, ServiceError } from "./Decoded.js"
export { defaultStops, refusalOf, type TradePolicy } from "./Policy.js"
export type { TradeRequest, TradeResult, TradeStep } from "./Trade.js"
export { TradeClient, type TradeClientOptions } from "./TradeClient.js"
export type * from "./Types.js"
export { type Sent, type TradeWallet, viemWallet } from "./Wallet.js"
