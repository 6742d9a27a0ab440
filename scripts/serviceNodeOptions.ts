/**
 * The service's node options by default: package.json's `config.nodeOptions`, which `npm start` puts
 * before the operator's `NODE_OPTIONS` (the last of a V8 flag given twice wins, so the operator's own
 * `--max-old-space-size` or `--max-semi-space-size` replaces the default).
 *
 * Why the service sets them at all: left alone, V8 gives the old generation more room between full
 * collections the faster the service allocates and keeps the pages, so under steady paid traffic the
 * RSS climbs towards node's heap limit (about 4 GB here) while the live heap stays flat; and a young
 * generation of node's 16 MB semi-spaces promotes the answers and request bodies that are still in
 * flight at the node when a scavenge comes (docs/performance.md, "The service's RSS held flat").
 *
 * Heap flags are read when the process starts, never later (`v8.setFlagsFromString` does not move the
 * limit), so they go in the process's own options. Whatever starts `src/main.ts` itself (the benches'
 * service process, `npm run cluster`'s replicas) takes them from here, to run it as `npm start` does.
 */
import { readFileSync } from "node:fs"
import { resolve } from "node:path"

const packageJson = JSON.parse(readFileSync(resolve(import.meta.dirname, "../package.json"), "utf8")) as {
  readonly config: { readonly nodeOptions: string }
}

/** The default node options of the service, as `npm start` gives them. */
export const defaultNodeOptions = packageJson.config.nodeOptions

/** `NODE_OPTIONS` for a service process: the defaults, then the operator's, which win where both set a flag. */
export const serviceNodeOptions = (operator: string | undefined): string =>
  operator === undefined || operator.trim() === "" ? defaultNodeOptions : `${defaultNodeOptions} ${operator}`
