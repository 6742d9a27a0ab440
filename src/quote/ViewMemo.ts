/**
 * Answers kept per index view. A view is one snapshot at one head, which never changes, and the market
 * moves only per block: a quote repeated at the same block (an agent polling its price, many takers of
 * one popular pair and size) can reuse what the last one found instead of searching and formatting
 * hundreds of candidate routes again. Keys are the request's own terms; a new view starts empty, so
 * nothing is ever served from an older block. Bounded per view (cleared when full), gone with the view.
 */
export interface ViewMemo<V> {
  readonly get: (view: object, key: string) => V | undefined
  readonly set: (view: object, key: string, value: V) => void
}

export const viewMemo = <V>(limit: number): ViewMemo<V> => {
  const byView = new WeakMap<object, Map<string, V>>()
  return {
    get: (view, key) => byView.get(view)?.get(key),
    set: (view, key, value) => {
      let known = byView.get(view)
      if (known === undefined) byView.set(view, known = new Map())
      if (known.size >= limit) known.clear()
      known.set(key, value)
    }
  }
}
