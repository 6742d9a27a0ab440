/**
 * A `fetch` for answers that run to megabytes (logs): reads the body whole, as bytes, before viem
 * reads it as text. viem decodes a body chunk by chunk into strings joined as they come
 * (`readResponseBody`); each chunk's string waits for the next over the network, meanwhile the
 * indexer's work allocates, and so survives young-generation collections into the old one: a
 * 20,000-pool catch-up promoted its 169 MB of log answers that way, besides the text itself, and the
 * old generation they grew stayed in RSS at the head. Bytes are held outside the JS heap, and their
 * text is made at once, when the body is complete. The size cap is viem's own, applied the same way.
 */
import { ResponseBodyTooLargeError } from "viem"

export const wholeBodyFetch = (maxSize: number) => async (input: string | URL | Request, init?: RequestInit) => {
  const response = await fetch(input, init)
  const length = response.headers.get("Content-Length")
  // viem refuses it by its length and reads nothing.
  if (response.body === null || (length !== null && Number(length) > maxSize)) return response
  const parts: Array<Uint8Array> = []
  let size = 0
  for await (const chunk of response.body) {
    size += chunk.byteLength
    // Thrown inside the loop, which cancels the rest of the body.
    if (size > maxSize) throw new ResponseBodyTooLargeError({ maxSize, size })
    parts.push(chunk)
  }
  return new Response(Buffer.concat(parts, size), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers
  })
}
