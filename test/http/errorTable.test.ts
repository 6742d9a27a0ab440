import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { toErrorBody } from "../../schema/ErrorBody.js"
import * as Errors from "../../schema/Errors.js"
import { errorTable } from "../../schema/ErrorTable.js"
import { errorResponse } from "../../src/http/ErrorResponse.js"

// The spec's `next` column, code by code.
const specNext: Record<string, string> = {
  quote_not_found: "requote",
  quote_stale: "requote",
  quote_expired: "requote",
  swap_attempts_exhausted: "requote",
  rpc_unavailable: "retry",
  lookup_rate_limited: "retry",
  receipt_rate_limited: "retry",
  payment_unavailable: "retry",
  invalid_request: "fix_request",
  ticker_not_allowed: "fix_request",
  invalid_amount: "fix_request",
  unsupported_pair: "fix_request",
  unknown_venue: "fix_request",
  unknown_source: "fix_request",
  taker_required: "fix_request",
  token_not_found: "fix_request",
  payload_too_large: "fix_request",
  no_pending_swap: "fix_request",
  no_route: "stop",
  insufficient_liquidity: "stop",
  unsupported_venue: "stop",
  buy_reverts: "stop",
  insufficient_balance: "stop",
  swap_reverts: "stop",
  cannot_sell: "stop",
  not_executable: "stop",
  swap_not_found: "stop",
  receipt_reads_exhausted: "stop",
  internal: "stop",
  client_closed: "stop",
  payment_required: "pay"
}

// The spec's known statuses.
const specStatus: Record<string, number> = {
  invalid_request: 400,
  payment_required: 402,
  token_not_found: 404,
  swap_not_found: 404,
  quote_stale: 409,
  no_pending_swap: 409,
  quote_expired: 410,
  payload_too_large: 413,
  insufficient_liquidity: 422,
  insufficient_balance: 422,
  lookup_rate_limited: 429,
  receipt_rate_limited: 429,
  swap_attempts_exhausted: 429,
  internal: 500,
  rpc_unavailable: 503
}

// Codes of the HTTP edge's own refusals, documented in docs/api.md ("Error codes"): not in the spec.
const edgeCodes = [
  "not_found",
  "method_not_allowed",
  "unsupported_media_type",
  "headers_too_large",
  "expectation_failed",
  "request_timeout"
]

const errorClasses = Errors.TradeError.members

describe("error table", () => {
  it("has one error class per spec code, plus the edge's documented refusals", () => {
    const codes = errorClasses.map((errorClass) => errorTable[errorClass._tag].code).sort()
    expect(codes).toEqual([...Object.keys(specNext), ...edgeCodes].sort())
  })

  it.each(errorClasses.map((errorClass) => [errorClass._tag, errorClass] as const))(
    "%s renders the envelope with the spec's next and status",
    async (tag, errorClass) => {
      const row = errorTable[tag]
      const error = Schema.decodeUnknownSync(errorClass as Schema.Schema<Errors.TradeError, unknown>)({
        _tag: tag,
        message: "boom",
        hint: "try again",
        ...(tag === "InvalidRequest" ? { details: [] } : {})
      })
      const body = toErrorBody(error)
      expect(body.error).toMatchObject({ code: row.code, message: "boom", hint: "try again" })
      expect(body.next).toBe(edgeCodes.includes(row.code) ? "fix_request" : specNext[row.code])
      const response = errorResponse(error)
      expect(response.status).toBe(specStatus[row.code] ?? row.status)
      if (row.next === "retry") {
        expect(body.retryAfterSec).toBeGreaterThan(0)
        expect(response.headers["retry-after"]).toBe(String(body.retryAfterSec))
      } else {
        expect(body.retryAfterSec).toBeUndefined()
      }
    }
  )
})
