/**
 * The shared devnet's manifest is what clients are promised: a schema-valid file, real code at every
 * contract role (Permit2 at its canonical address, USDC at Arc's), a token list of the verified tokens
 * only, and funded accounts.
 */
import { Schema } from "effect"
import { readFileSync } from "node:fs"
import { type Address, erc20Abi, getAddress, type Hex, parseAbi } from "viem"
import { describe, expect, inject, it } from "vitest"
import { HOOK_FLAG_MASK } from "../../schema/Chain.js"
import { Manifest } from "../../schema/Manifest.js"
import { clientsFor, devnetOperator, sharedManifest, tokenAddress } from "../support/devnet.js"

const manifest = sharedManifest()
const { public: client } = clientsFor(manifest)

describe("devnet manifest", () => {
  it("is written to disk and decodes with the Manifest schema", () => {
    const onDisk = JSON.parse(readFileSync(inject("devnet").manifestPath, "utf8")) as unknown
    const decoded = Schema.decodeUnknownSync(Manifest)(onDisk)
    expect(decoded.chainId).toBe(5042)
    expect(decoded.rpcUrl).toBe(manifest.rpcUrl)
    expect(decoded.startBlock).toBeGreaterThan(0)
  })

  it("serves chain id 5042", async () => {
    expect(await client.getChainId()).toBe(5042)
  })

  it("names every role the service and tests need, each with code", async () => {
    const roles = [
      "usdc",
      "permit2",
      "v2Factory",
      "v3Factory",
      "v3SwapRouter",
      "v3PositionManager",
      "v3Quoter",
      "v4PoolManager",
      "v4SwapHelper",
      "v4LiquidityHelper",
      "v4Quoter",
      "v4StateView",
      "dynamicFeeHook",
      "swapFeeHook",
      "launchpad"
    ]
    expect(Object.keys(manifest.contracts)).toEqual(expect.arrayContaining(roles))
    for (const [role, address] of Object.entries(manifest.contracts)) {
      const code = await client.getCode({ address: address as Address })
      expect(code?.length ?? 0, role).toBeGreaterThan(2)
    }
    expect(manifest.contracts["usdc"]).toBe("0x3600000000000000000000000000000000000000")
    expect(manifest.contracts["permit2"]).toBe("0x000000000022D473030F116dDEE9F6B43aC78BA3")
  })

  it("puts v4 hooks at addresses carrying their permission bits", () => {
    const low14 = (address: string) => Number(BigInt(address) & BigInt(HOOK_FLAG_MASK))
    expect(low14(manifest.contracts["dynamicFeeHook"] as string)).toBe(0x1080)
    expect(low14(manifest.contracts["swapFeeHook"] as string)).toBe(0x0044)
  })

  it("lists only verified tokens, with coin ids, and leaves the impostor out", () => {
    const listed = manifest.tokenList.tokens.map((t) => getAddress(t.address))
    expect(manifest.tokenList.tokens.map((t) => t.symbol).sort()).toEqual(["EURC", "USDC", "WBTC", "WETH"])
    for (const entry of manifest.tokenList.tokens) {
      expect(entry.chainId).toBe(5042)
      expect(entry.extensions?.["coinId"]).toEqual(expect.any(String))
    }
    expect(listed).not.toContain(tokenAddress(manifest, "WETH_IMPOSTOR"))
    expect(listed).toContain(tokenAddress(manifest, "WETH"))
  })

  it("seeds look-alike tokens: an impostor with the verified name and symbol, and a shared ticker", async () => {
    const meta = async (label: string) => {
      const address = tokenAddress(manifest, label)
      const [name, symbol] = await Promise.all([
        client.readContract({ address, abi: erc20Abi, functionName: "name" }),
        client.readContract({ address, abi: erc20Abi, functionName: "symbol" })
      ])
      return { name, symbol }
    }
    expect(await meta("WETH_IMPOSTOR")).toEqual(await meta("WETH"))
    const [a, b] = await Promise.all([meta("SHARED_A"), meta("SHARED_B")])
    expect(a.symbol).toBe(b.symbol)
    expect(a.name).not.toBe(b.name)
  })

  it("funds at least five accounts with native USDC, ERC-20 USDC and tokens", async () => {
    expect(manifest.accounts.length).toBeGreaterThanOrEqual(5)
    const usdc = tokenAddress(manifest, "USDC")
    for (const account of manifest.accounts) {
      const address = account.address as Address
      expect(await client.getBalance({ address })).toBeGreaterThan(10n ** 18n * 1000n)
      const erc20 = (token: Address) =>
        client.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [address] })
      expect(await erc20(usdc)).toBeGreaterThan(1_000n * 10n ** 6n)
      for (const label of ["WETH", "WBTC", "EURC", "DEGEN"]) {
        expect(await erc20(tokenAddress(manifest, label)), label).toBeGreaterThan(0n)
      }
    }
  })

  it("names an operator that owns the test tokens (tests may mint with it)", async () => {
    const owner = await client.readContract({
      address: tokenAddress(manifest, "WETH"),
      abi: parseAbi(["function owner() view returns (address)"]),
      functionName: "owner"
    })
    expect(owner).toBe(devnetOperator().address)
  })

  it("keys are private keys of the listed addresses", async () => {
    const { privateKeyToAddress } = await import("viem/accounts")
    for (const account of manifest.accounts) {
      expect(privateKeyToAddress(account.privateKey as Hex)).toBe(getAddress(account.address))
    }
  })
})
