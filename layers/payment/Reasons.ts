/**
 * Why a payment was refused, in the words payers' libraries know: the x402 v2 specification's error
 * codes (section 9) where it names the case, else the name `@x402/evm` uses for it. A facilitator's own
 * name for a case the specification names is translated, so one case always reads the same whichever
 * facilitator (in-process or remote) saw it.
 */
export const Reason = {
  invalidPayload: "invalid_payload",
  invalidNetwork: "invalid_network",
  invalidScheme: "invalid_scheme",
  /** The accepted requirements differ from the offer in a field no narrower code names (asset, extra, timeout). */
  invalidRequirements: "invalid_payment_requirements",
  /** @x402/evm: the authorized value is not the amount offered. */
  valueMismatch: "invalid_exact_evm_payload_authorization_value_mismatch",
  recipientMismatch: "invalid_exact_evm_payload_recipient_mismatch",
  notYetValid: "invalid_exact_evm_payload_authorization_valid_after",
  expiring: "invalid_exact_evm_payload_authorization_valid_before",
  signature: "invalid_exact_evm_payload_signature",
  insufficientFunds: "insufficient_funds",
  /** @x402/evm: the authorization's nonce was already used on chain, or paid for a call here. */
  nonceUsed: "invalid_exact_evm_nonce_already_used",
  /** @x402/core: broadcast, not yet confirmed. */
  settlementPending: "settlement_pending",
  transactionState: "invalid_transaction_state",
  unexpectedVerify: "unexpected_verify_error",
  unexpectedSettle: "unexpected_settle_error"
} as const

/** @x402/evm's names for cases the specification names. */
const specified: Readonly<Record<string, string>> = {
  invalid_exact_evm_insufficient_balance: Reason.insufficientFunds,
  invalid_exact_evm_signature: Reason.signature,
  invalid_exact_evm_recipient_mismatch: Reason.recipientMismatch,
  invalid_exact_evm_network_mismatch: Reason.invalidNetwork,
  invalid_exact_evm_scheme: Reason.invalidScheme,
  invalid_exact_evm_transaction_failed: Reason.transactionState
}

/** A facilitator's reason in the specification's words. */
export const specReason = (reason: string): string => specified[reason] ?? reason
