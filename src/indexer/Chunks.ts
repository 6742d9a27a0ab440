/**
 * An append-only list that snapshots share: chunks of `CHUNK` items, oldest first, every chunk but the
 * last full. A draft appends by copying the list of chunks and the last chunk, never the items before
 * it: a hub's tens of thousands of trades are not copied by every block that adds one, and the recent
 * snapshots the index keeps share all their full chunks.
 */
export type Chunks<A> = ReadonlyArray<ReadonlyArray<A>>

export const CHUNK = 256

/** `list` as a draft's own copy to append to: the chunks from `from` on, the last one copied if it has room. */
export const ownedChunks = <A>(list: Chunks<A>, from = 0): Array<ReadonlyArray<A>> => {
  const chunks = list.slice(from)
  const last = chunks.at(-1)
  if (last !== undefined && last.length < CHUNK) chunks[chunks.length - 1] = [...last]
  return chunks
}

/** Appends `item` to a draft's own copy (from `ownedChunks`), whose last chunk is its own if it has room. */
export const appendOwned = <A>(owned: Array<ReadonlyArray<A>>, item: A): void => {
  const last = owned.at(-1)
  if (last === undefined || last.length >= CHUNK) owned.push([item])
  else (last as Array<A>).push(item)
}

export const fromItems = <A>(items: ReadonlyArray<A>): Chunks<A> => {
  const chunks: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += CHUNK) chunks.push(items.slice(i, i + CHUNK))
  return chunks
}
