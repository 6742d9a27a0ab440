/**
 * The load balancer of `npm run cluster`: HAProxy from the distribution's packages, in HTTP mode,
 * round-robin over the replicas that answer `GET /health` with 200 (checked every 500 ms, out after
 * two failures, back after two successes), retrying on another replica only a request it could not
 * deliver, and naming the replica that answered in `X-Replica`.
 */
import { spawnSync } from "node:child_process"

export const haproxyMissing = (): string | undefined =>
  spawnSync("haproxy", ["-v"]).error === undefined
    ? undefined
    : "HAProxy is not installed: `apt-get install -y haproxy` (Debian/Ubuntu), then run again"

/** HAProxy in front of `replicas` on `port`, its statistics on `statsPort`: round-robin, checked on `/health`. */
export const balancerConfig = (
  port: number,
  statsPort: number,
  replicas: ReadonlyArray<{ readonly name: string; readonly url: string }>
) => `
global
  maxconn 4096
defaults
  mode http
  timeout connect 2s
  # A replica settles a paid call after answering it and before the answer leaves; a balancer that
  # gave up on it meanwhile would leave it charged without an answer. So wait longer than a paid call
  # can last: verify and settle each up to FACILITATOR_TIMEOUT_MS (30 s) or the receipt wait
  # SETTLEMENT_RECEIPT_TIMEOUT_MS (20 s), plus the operation itself.
  timeout client 120s
  timeout server 120s
  timeout check 2s
  retries 3
  option redispatch
frontend checkpoint
  bind 127.0.0.1:${port}
  default_backend replicas
frontend stats
  bind 127.0.0.1:${statsPort}
  stats enable
  stats uri /stats
backend replicas
  balance roundrobin
  option httpchk GET /health
  http-check expect status 200
  default-server inter 500ms fall 2 rise 2
  http-response set-header X-Replica %s
${replicas.map((r) => `  server ${r.name} ${new URL(r.url).host} check`).join("\n")}
`
