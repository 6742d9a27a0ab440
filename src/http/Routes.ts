/**
 * What the edge knows of each mounted path, read from the contract: the methods it answers (for 405,
 * `Allow` and the CORS preflight).
 */
import { HttpApi, type HttpApiGroup } from "@effect/platform"

/** What the edge knows of a mounted path: the methods it answers. */
export interface Route {
  readonly methods: Array<string>
}

/**
 * Each mounted path; HEAD comes with GET (the router answers it from the GET route), and OPTIONS, the
 * CORS preflight, with every path.
 */
export const routesOf = (
  api: HttpApi.HttpApi<string, HttpApiGroup.HttpApiGroup.AnyWithProps>
): ReadonlyMap<string, Route> => {
  const byPath = new Map<string, Route>()
  HttpApi.reflect(api, {
    onGroup: () => undefined,
    onEndpoint: ({ endpoint }) => {
      const route = byPath.get(endpoint.path) ?? { methods: [] }
      route.methods.push(endpoint.method, ...(endpoint.method === "GET" ? ["HEAD"] : []))
      byPath.set(endpoint.path, route)
    }
  })
  for (const route of byPath.values()) route.methods.push("OPTIONS")
  return byPath
}
