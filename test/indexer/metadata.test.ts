/**
 * Token metadata from contracts that do not follow the ERC-20 metadata ABI: bytes32 text (MKR-style),
 * a contract that reverts every call, an account without code. None of them fails the read.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { type Hex, stringToHex } from "viem"
import { ChainRpc } from "../../layers/ChainRpc.js"
import { lowerAddress } from "../../schema/Chain.js"
import { decodeDecimals, decodeText, readMetadata } from "../../src/indexer/Metadata.js"
import { readMetadataOf } from "../../src/indexer/MetadataBatch.js"
import { clientsFor, sharedManifest, tokenAddress } from "../support/devnet.js"

const manifest = sharedManifest()
const rpc = ChainRpc.make({ rpcUrl: manifest.rpcUrl, chainId: manifest.chainId })

/** Runtime code answering every call with the same 32 bytes. */
const answering = (word: Hex) => `0x7f${word.slice(2)}60005260206000f3` as Hex
const reverting = "0x60006000fd" as Hex

const plant = (code: Hex) =>
  Effect.promise(async () => {
    const address = `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(20))).toString("hex")}` as Hex
    await clientsFor(manifest).test.setCode({ address, bytecode: code })
    return address
  })

const read = (token: Hex) => readMetadata(lowerAddress(token)).pipe(Effect.provideService(ChainRpc, rpc))

describe("token metadata", () => {
  it("decodes ABI strings, bytes32 text and decimals, and refuses garbage", () => {
    expect(decodeText(stringToHex("MKR", { size: 32 }))).toBe("MKR")
    expect(decodeText(`0x${"00".repeat(31)}01`)).toBeUndefined()
    expect(decodeText("0x")).toBeUndefined()
    expect(decodeDecimals(`0x${"00".repeat(31)}12`)).toBe(18)
    expect(decodeDecimals(`0x${"ff".repeat(32)}`)).toBeUndefined()
  })

  it.effect("reads bytes32 symbols; decimals that are not a uint8 make the metadata not ok", () =>
    Effect.gen(function*() {
      const metadata = yield* read(yield* plant(answering(stringToHex("MKR", { size: 32 }))))
      expect(metadata).toEqual({ symbol: "MKR", name: "MKR", decimals: 18, ok: false })
    }))

  it.effect("a contract that reverts, and an address without code, are indexed with placeholders", () =>
    Effect.gen(function*() {
      expect(yield* read(yield* plant(reverting))).toEqual({ symbol: "", name: "", decimals: 18, ok: false })
      expect(yield* read("0x000000000000000000000000000000000000c0de")).toEqual({
        symbol: "",
        name: "",
        decimals: 18,
        ok: false
      })
    }))

  it.effect("read many at once through Multicall3, each token's metadata is what its own calls give", () =>
    Effect.gen(function*() {
      const tokens = [
        yield* plant(answering(stringToHex("MKR", { size: 32 }))),
        yield* plant(reverting),
        "0x000000000000000000000000000000000000c0de" as Hex,
        tokenAddress(manifest, "USDC"),
        tokenAddress(manifest, "WETH")
      ].map(lowerAddress)
      // Past one aggregate's chunk, so tokens of several chunks come back together.
      const many = Array.from({ length: 150 }, (_, i) => tokens[i % tokens.length]!)
      const batched = yield* readMetadataOf(many).pipe(Effect.provideService(ChainRpc, rpc))
      expect(batched.size).toBe(tokens.length)
      for (const token of tokens) expect(batched.get(token)).toEqual(yield* read(token))
      expect(batched.get(lowerAddress(tokenAddress(manifest, "USDC")))).toMatchObject({
        symbol: "USDC",
        decimals: 6,
        ok: true
      })
    }))
})
