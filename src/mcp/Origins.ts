/**
 * Which browser origins may call the MCP endpoint. The Streamable HTTP transport requires servers to
 * check `Origin`, or a page on any site could reach a server on the user's machine through DNS
 * rebinding: its own host name resolved to 127.0.0.1, its requests still carry its own `Origin`.
 * A request without `Origin` comes from no browser (agents' HTTP clients send none) and is served.
 */
import { Effect, Option } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"

/** Loopback on any port and either scheme: local hosts and inspectors served from the same machine. */
const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"].flatMap((host) => [`http://${host}:*`, `https://${host}:*`])

/** `MCP_ALLOWED_ORIGINS`, or by default the service's own origin and loopback. */
export const allowedOrigins = (config: AppConfig): ReadonlyArray<string> =>
  Option.getOrElse(config.mcpAllowedOrigins, () => [new URL(AppConfig.baseUrl(config)).origin, ...LOOPBACK])

const parsed = (origin: string): URL | undefined => {
  try {
    return new URL(origin)
  } catch {
    return undefined
  }
}

/** An entry is an origin; a port of `*` accepts that scheme and host on any port, or none. */
const matches = (entry: string, origin: URL): boolean => {
  const anyPort = entry.endsWith(":*")
  const allowed = parsed(anyPort ? entry.slice(0, -2) : entry)
  if (allowed === undefined) return false
  return anyPort
    ? allowed.protocol === origin.protocol && allowed.hostname === origin.hostname
    : allowed.origin === origin.origin
}

/**
 * The check, with the allow-list read once: the reason to refuse a request's `Origin` header, or
 * `undefined` to serve it. `null` (a sandboxed page, a file) and anything unparsable are refused.
 */
export const originCheck = Effect.map(AppConfig, (config) => {
  const allowed = allowedOrigins(config)
  return (header: string | undefined): string | undefined => {
    if (header === undefined) return undefined
    const origin = parsed(header)
    if (origin !== undefined && origin.origin !== "null" && allowed.some((entry) => matches(entry, origin))) {
      return undefined
    }
    return `Origin ${JSON.stringify(header.slice(0, 128))} may not call this MCP server ` +
      "(MCP_ALLOWED_ORIGINS lists the browser origins it serves)"
  }
})
