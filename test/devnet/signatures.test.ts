/**
 * Signed approvals on the shared devnet, each from fresh accounts so that no other test file is
 * affected: a Permit2 PermitSingle signed with viem is accepted by the canonical Permit2, and an
 * EIP-3009 authorization settles on the devnet USDC (domain `USDC` / `2`).
 */
import { type Address, bytesToHex, domainSeparator, keccak256, parseEther, parseUnits } from "viem"
import { describe, expect, it } from "vitest"
import { PERMIT2_CODE_HASH_5042 } from "../../devnet/npmArtifacts.js"
import { permit2Abi, usdcAbi } from "../support/abis.js"
import { contractAddress, freshAccount, sharedManifest } from "../support/devnet.js"
import { authorizationTypes, usdcDomain } from "../support/usdcTypedData.js"
import { walletFor } from "../support/wallet.js"

const manifest = sharedManifest()
const usdc = contractAddress(manifest, "usdc")
const permit2 = contractAddress(manifest, "permit2")

/** A fresh account holding `usdc` ERC-20 USDC, deposited from its own native balance. */
const fundedWallet = async (usdcAmount: string) => {
  const wallet = walletFor(manifest, await freshAccount(manifest, "10000"))
  await wallet.write(usdc, usdcAbi, "deposit", [], parseEther(usdcAmount))
  return wallet
}

const randomNonce = () => bytesToHex(crypto.getRandomValues(new Uint8Array(32)))

describe("devnet USDC", () => {
  it("mints 1 unit per 1e12 native wei deposited and burns back to native", async () => {
    const wallet = await fundedWallet("25")
    expect(await wallet.balanceOf(usdc)).toBe(parseUnits("25", 6))
    const nativeBefore = await wallet.public.getBalance({ address: wallet.address })
    const receipt = await wallet.write(usdc, usdcAbi, "withdraw", [parseUnits("10", 6)])
    const gas = receipt.gasUsed * receipt.effectiveGasPrice
    expect(await wallet.public.getBalance({ address: wallet.address })).toBe(nativeBefore + parseEther("10") - gas)
    expect(await wallet.balanceOf(usdc)).toBe(parseUnits("15", 6))
  })

  it("settles an EIP-3009 transferWithAuthorization submitted by a relayer, once", async () => {
    const payer = await fundedWallet("100")
    const relayer = walletFor(manifest, await freshAccount(manifest))
    const payee = (await freshAccount(manifest, "0")).address
    const now = BigInt(Math.floor(Date.now() / 1000))
    const message = {
      from: payer.address,
      to: payee,
      value: parseUnits("12.5", 6),
      validAfter: 0n,
      validBefore: now + 3600n,
      nonce: randomNonce()
    }
    const signature = await payer.account.signTypedData({
      domain: usdcDomain(manifest.chainId, usdc),
      types: authorizationTypes("TransferWithAuthorization"),
      primaryType: "TransferWithAuthorization",
      message
    })
    const args = [
      message.from,
      message.to,
      message.value,
      message.validAfter,
      message.validBefore,
      message.nonce,
      signature
    ] as const
    const [paid, received] = await relayer.changes(
      [[usdc, payer.address], [usdc, payee]],
      () => relayer.write(usdc, usdcAbi, "transferWithAuthorization", args)
    )
    expect(paid).toBe(-message.value)
    expect(received).toBe(message.value)
    expect(
      await relayer.public.readContract({
        address: usdc,
        abi: usdcAbi,
        functionName: "authorizationState",
        args: [payer.address, message.nonce]
      })
    ).toBe(true)
    await expect(
      relayer.public.simulateContract({
        account: relayer.account,
        address: usdc,
        abi: usdcAbi,
        functionName: "transferWithAuthorization",
        args
      })
    ).rejects.toThrow()
  })
})

describe("Permit2", () => {
  it("is the canonical deployment: Arc's code hash, a domain separator for chain 5042 and its address", async () => {
    const { public: reader } = walletFor(manifest, await freshAccount(manifest, "0"))
    const separator = await reader.readContract({ address: permit2, abi: permit2Abi, functionName: "DOMAIN_SEPARATOR" })
    expect(separator).toBe(domainSeparator({ domain: { name: "Permit2", chainId: 5042, verifyingContract: permit2 } }))
    const code = await reader.getCode({ address: permit2 })
    expect(keccak256(code ?? "0x")).toBe(PERMIT2_CODE_HASH_5042)
  })

  it("accepts a PermitSingle signed with viem, then lets the spender pull the tokens", async () => {
    const owner = await fundedWallet("50")
    const spender = walletFor(manifest, await freshAccount(manifest))
    await owner.approve(usdc, permit2)
    const now = Math.floor(Date.now() / 1000)
    const permit = {
      details: { token: usdc, amount: parseUnits("20", 6), expiration: now + 30 * 86_400, nonce: 0 },
      spender: spender.address,
      sigDeadline: BigInt(now + 600)
    }
    const signature = await owner.account.signTypedData({
      domain: { name: "Permit2", chainId: manifest.chainId, verifyingContract: permit2 },
      types: {
        PermitSingle: [
          { name: "details", type: "PermitDetails" },
          { name: "spender", type: "address" },
          { name: "sigDeadline", type: "uint256" }
        ],
        PermitDetails: [
          { name: "token", type: "address" },
          { name: "amount", type: "uint160" },
          { name: "expiration", type: "uint48" },
          { name: "nonce", type: "uint48" }
        ]
      },
      primaryType: "PermitSingle",
      message: permit
    })
    // Anyone may submit the permit; the spender does, as a router would.
    await spender.write(permit2, permit2Abi, "permit", [owner.address, permit, signature])
    const allowance = (who: Address) =>
      spender.public.readContract({
        address: permit2,
        abi: permit2Abi,
        functionName: "allowance",
        args: [owner.address, usdc, who]
      })
    expect(await allowance(spender.address)).toEqual([permit.details.amount, permit.details.expiration, 1])

    const pulled = parseUnits("7", 6)
    const [from, to] = await spender.changes(
      [[usdc, owner.address], [usdc, spender.address]],
      () => spender.write(permit2, permit2Abi, "transferFrom", [owner.address, spender.address, pulled, usdc])
    )
    expect([from, to]).toEqual([-pulled, pulled])
    expect((await allowance(spender.address))[0]).toBe(permit.details.amount - pulled)
  })
})
