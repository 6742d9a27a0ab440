/**
 * The venue file's v3 fork fields: a callback name and a Swap event the router and the index can use as
 * data, refused when they could not be (an event whose extra fields are not one word each, which the
 * index's word count would misread; a callback "name" carrying its own argument list).
 */
import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { V3VenueEntry } from "../../schema/VenueFile.js"

const entry = {
  id: "pancake-v3",
  name: "PancakeSwap v3",
  family: "v3",
  factory: `0x${"11".repeat(20)}`,
  poolDeployer: `0x${"22".repeat(20)}`,
  poolInitCodeHash: `0x${"33".repeat(32)}`,
  feeTiers: [{ fee: 2500, tickSpacing: 50 }]
}
const decode = (fields: Record<string, unknown>) => Schema.decodeUnknownEither(V3VenueEntry)({ ...entry, ...fields })

describe("a v3 fork's callback name and Swap event", () => {
  it("accepts PancakeSwap's, and neither at all", () => {
    expect(Either.isRight(decode({}))).toBe(true)
    expect(Either.isRight(decode({
      swapCallback: "pancakeV3SwapCallback",
      swapEvent: "Swap(address,address,int256,int256,uint160,uint128,int24,uint128,uint128)"
    }))).toBe(true)
  })

  it("refuses an event that does not begin as Uniswap's or appends a dynamic field, and a name with arguments", () => {
    for (
      const swapEvent of [
        "Swap(address,address,int256,int256,uint160,uint128)",
        "Swap(address,address,int256,int256,uint160,uint128,int24,string)",
        "Swap(address,address,int256,int256,uint160,uint128,int24,uint256[])"
      ]
    ) {
      expect(Either.isLeft(decode({ swapEvent })), swapEvent).toBe(true)
    }
    expect(Either.isLeft(decode({ swapCallback: "pancakeV3SwapCallback(int256,int256,bytes)" }))).toBe(true)
  })
})
