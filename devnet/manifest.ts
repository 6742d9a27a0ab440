/**
 * The manifest the bootstrap hands to clients and to the service: validated against
 * `schema/Manifest.ts` before it is written, so a bootstrap change cannot ship a malformed one.
 */
import { FileSystem, Path } from "@effect/platform"
import { Effect, Schema } from "effect"
import { getAddress } from "viem"
import { Manifest } from "../schema/Manifest.js"
import { VenueFile } from "../schema/VenueFile.js"
import type { DevAccount } from "./accounts.js"
import { DevnetError } from "./DevnetError.js"
import type { Market } from "./market/context.js"
import type { Protocol } from "./protocol.js"
import { buildTokenList } from "./tokenList.js"

export interface ManifestInput {
  readonly rpcUrl: string
  readonly chainId: number
  readonly startBlock: number
  readonly protocol: Protocol
  readonly market: Market
  readonly clients: ReadonlyArray<DevAccount>
  readonly createdAt: Date
  readonly venues: VenueFile
}

const mapValues = <A, B>(record: Readonly<Record<string, A>>, f: (a: A) => B): Record<string, B> =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, f(value)]))

/** Every address checksummed (EIP-55), as wallets and explorers print them. */
export const buildManifest = (input: ManifestInput) =>
  Schema.decodeUnknown(Manifest)({
    rpcUrl: input.rpcUrl,
    chainId: input.chainId,
    startBlock: input.startBlock,
    contracts: mapValues(input.protocol, getAddress),
    tokenList: buildTokenList(input.chainId, [...input.market.tokens.values()], input.createdAt),
    accounts: input.clients.map(({ address, privateKey }) => ({ address, privateKey })),
    tokens: Object.fromEntries([...input.market.tokens].map(([label, token]) => [label, getAddress(token.address)])),
    pools: input.market.pools.map(({ key: _key, usd: _usd, ...pool }) => ({
      ...pool,
      address: getAddress(pool.address),
      id: pool.venue === "v4" ? pool.id : getAddress(pool.id),
      token0: getAddress(pool.token0),
      token1: getAddress(pool.token1),
      hooks: pool.hooks === null ? null : getAddress(pool.hooks)
    })),
    venues: Schema.encodeSync(VenueFile)(input.venues)
  }).pipe(Effect.mapError((cause) =>
    new DevnetError({ message: `manifest does not match its schema: ${cause.message}`, cause })
  ))

/** The same manifest pointing at another RPC URL (a cached state served on a new port). */
export const withRpcUrl = (manifest: Manifest, rpcUrl: string): Manifest => ({ ...manifest, rpcUrl })

export const writeManifest = Effect.fn("writeManifest")(
  function*(file: string, manifest: Manifest) {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const encoded = yield* Schema.encode(Manifest)(manifest)
    yield* fs.makeDirectory(path.dirname(file), { recursive: true })
    // Write then rename, so a reader (the service, a test) never sees half a file.
    const temporary = `${file}.${process.pid}.tmp`
    yield* fs.writeFileString(temporary, `${JSON.stringify(encoded, null, 2)}\n`)
    yield* fs.rename(temporary, file)
  },
  (effect, file) =>
    Effect.mapError(effect, (cause) => new DevnetError({ message: `cannot write manifest ${file}`, cause }))
)

export const readManifest = Effect.fn("readManifest")(
  function*(file: string) {
    const fs = yield* FileSystem.FileSystem
    const text = yield* fs.readFileString(file)
    return yield* Schema.decodeUnknown(Schema.parseJson(Manifest))(text)
  },
  (effect, file) =>
    Effect.mapError(effect, (cause) => new DevnetError({ message: `cannot read manifest ${file}`, cause }))
)
