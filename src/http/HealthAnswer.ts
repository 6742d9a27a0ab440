/**
 * `GET /health` on the wire: 200 with the report while the service can answer (`ok`, `degraded`),
 * 503 with the report and the `rpc_unavailable` envelope (and `Retry-After`) when it cannot (`down`).
 */
import { HttpServerResponse } from "@effect/platform"
import { toErrorBody } from "../../schema/ErrorBody.js"
import { RpcUnavailable } from "../../schema/Errors.js"
import { rowOf } from "../../schema/ErrorTable.js"
import type { HealthResponse } from "../../schema/Health.js"

export const healthAnswer = (report: HealthResponse): HttpServerResponse.HttpServerResponse => {
  if (report.status !== "down") return HttpServerResponse.unsafeJson(report)
  const error = new RpcUnavailable({
    message: "the service cannot answer from a current view of the chain",
    hint: report.reason ?? "the index is not current"
  })
  const row = rowOf(error)
  return HttpServerResponse.unsafeJson({ ...report, ...toErrorBody(error) }, {
    status: row.status,
    headers: row.retryAfterSec === undefined ? {} : { "retry-after": String(row.retryAfterSec) }
  })
}
