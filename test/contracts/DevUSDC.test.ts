import { type Address, type Hex, parseEther, parseSignature, toHex } from "viem"
import type { HDAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loadArtifact } from "../../devnet/Artifacts.js"
import { USDC_ADDRESS } from "../../schema/Chain.js"
import { type AuthorizationKind, authorizationTypes, usdcDomain } from "../support/usdcTypedData.js"
import { type Chain, type Deployed, startChain } from "./chain.js"

const USDC: Address = USDC_ADDRESS
const domain = usdcDomain(5042, USDC)

describe("DevUSDC planted at 0x3600… with anvil_setCode", () => {
  let chain: Chain
  let usdc: Deployed
  let alice: HDAccount
  let bob: HDAccount
  let carol: HDAccount

  const balance = (who: Address) => usdc.read("balanceOf", [who]) as Promise<bigint>

  const authorize = async (
    from: HDAccount,
    to: Address,
    value: bigint,
    primaryType: AuthorizationKind = "TransferWithAuthorization"
  ) => {
    const message = {
      from: from.address,
      to,
      value,
      validAfter: 0n,
      validBefore: 2n ** 40n,
      nonce: toHex(crypto.getRandomValues(new Uint8Array(32)))
    }
    const signature = await from.signTypedData({ domain, types: authorizationTypes(primaryType), primaryType, message })
    const args = [message.from, message.to, message.value, message.validAfter, message.validBefore, message.nonce]
    return { message, signature, args }
  }

  const vrs = (signature: Hex) => {
    const { v, r, s } = parseSignature(signature)
    return [Number(v), r, s]
  }

  beforeAll(async () => {
    chain = await startChain()
    ;[, alice, bob, carol] = chain.accounts as [HDAccount, HDAccount, HDAccount, HDAccount]
    const { abi, deployedBytecode } = loadArtifact("DevUSDC")
    await chain.testClient.setCode({ address: USDC, bytecode: deployedBytecode })
    usdc = chain.at(abi, USDC)
    await usdc.write("deposit", [], { from: alice, value: parseEther("100") })
  })
  afterAll(() => chain.stop())

  it("serves constant metadata and the EIP-712 domain without any constructor storage", async () => {
    expect(await usdc.read("name")).toBe("USDC")
    expect(await usdc.read("symbol")).toBe("USDC")
    expect(await usdc.read("decimals")).toBe(6)
    expect(await usdc.read("version")).toBe("2")
    expect(await usdc.read("eip712Domain")).toEqual(["0x0f", "USDC", "2", 5042n, USDC, `0x${"0".repeat(64)}`, []])
  })

  it("mints 1_000_000 units per 1e18 wei deposited and pays native back on withdraw", async () => {
    const before = await balance(bob.address)
    await usdc.write("deposit", [], { from: bob, value: parseEther("1") })
    expect(await balance(bob.address)).toBe(before + 1_000_000n)

    await chain.send(
      chain.walletClient.sendTransaction({ account: bob, chain: chain.chain, to: USDC, value: parseEther("2") })
    )
    expect(await balance(bob.address)).toBe(before + 3_000_000n)

    await usdc.write("depositFor", [carol.address], { from: bob, value: parseEther("0.5") })
    expect(await balance(carol.address)).toBe(500_000n)

    const nativeBefore = await chain.publicClient.getBalance({ address: bob.address })
    const receipt = await usdc.write("withdraw", [2_500_000n], { from: bob })
    const gas = receipt.gasUsed * receipt.effectiveGasPrice
    expect(await chain.publicClient.getBalance({ address: bob.address })).toBe(nativeBefore + parseEther("2.5") - gas)
    expect(await balance(bob.address)).toBe(before + 500_000n)
    expect(await usdc.read("totalSupply")).toBe(100_000_000n + 1_000_000n)
  })

  it("refuses native value that is not a whole 1e-6 USDC", async () => {
    await expect(usdc.write("deposit", [], { from: bob, value: 10n ** 12n + 1n })).rejects.toThrow(
      "DepositNotWholeUnit"
    )
  })

  it("settles a transferWithAuthorization signed with signTypedData, in both overloads, once each", async () => {
    const first = await authorize(alice, bob.address, 1_250_000n)
    const bobBefore = await balance(bob.address)
    await usdc.write("transferWithAuthorization", [...first.args, ...vrs(first.signature)], { from: carol })
    expect(await balance(bob.address)).toBe(bobBefore + 1_250_000n)
    expect(await usdc.read("authorizationState", [alice.address, first.message.nonce])).toBe(true)
    await expect(
      usdc.write("transferWithAuthorization", [...first.args, ...vrs(first.signature)], { from: carol })
    ).rejects.toThrow("AuthorizationAlreadyUsed")

    const second = await authorize(alice, bob.address, 750_000n)
    await usdc.write("transferWithAuthorization", [...second.args, second.signature], { from: carol })
    expect(await balance(bob.address)).toBe(bobBefore + 2_000_000n)
    await expect(
      usdc.write("transferWithAuthorization", [...second.args, second.signature], { from: carol })
    ).rejects.toThrow("AuthorizationAlreadyUsed")
  })

  it("rejects an authorization signed by someone else, or altered", async () => {
    const forged = await authorize(bob, carol.address, 1n)
    const args = [alice.address, ...forged.args.slice(1)]
    await expect(usdc.write("transferWithAuthorization", [...args, forged.signature])).rejects.toThrow(
      "InvalidSignature"
    )
    const honest = await authorize(alice, carol.address, 1n)
    const raised = [...honest.args.slice(0, 2), 2n, ...honest.args.slice(3)]
    await expect(usdc.write("transferWithAuthorization", [...raised, honest.signature])).rejects.toThrow(
      "InvalidSignature"
    )
  })

  it("lets only the payee submit receiveWithAuthorization", async () => {
    const auth = await authorize(alice, carol.address, 100n, "ReceiveWithAuthorization")
    await expect(usdc.write("receiveWithAuthorization", [...auth.args, auth.signature], { from: bob })).rejects.toThrow(
      "CallerMustBePayee"
    )
    const carolBefore = await balance(carol.address)
    await usdc.write("receiveWithAuthorization", [...auth.args, ...vrs(auth.signature)], { from: carol })
    expect(await balance(carol.address)).toBe(carolBefore + 100n)
  })

  it("cancels an unused authorization so it can no longer settle", async () => {
    const auth = await authorize(alice, bob.address, 5n)
    const cancel = await alice.signTypedData({
      domain,
      types: { CancelAuthorization: [{ name: "authorizer", type: "address" }, { name: "nonce", type: "bytes32" }] },
      primaryType: "CancelAuthorization",
      message: { authorizer: alice.address, nonce: auth.message.nonce }
    })
    await usdc.write("cancelAuthorization", [alice.address, auth.message.nonce, cancel], { from: bob })
    await expect(usdc.write("transferWithAuthorization", [...auth.args, auth.signature])).rejects.toThrow(
      "AuthorizationAlreadyUsed"
    )
  })

  it("grants an allowance through an EIP-2612 permit and bumps the nonce", async () => {
    const deadline = 2n ** 40n
    const message = { owner: alice.address, spender: bob.address, value: 3_000_000n, nonce: 0n, deadline }
    const signature = await alice.signTypedData({
      domain,
      types: {
        Permit: [
          { name: "owner", type: "address" },
          { name: "spender", type: "address" },
          { name: "value", type: "uint256" },
          { name: "nonce", type: "uint256" },
          { name: "deadline", type: "uint256" }
        ]
      },
      primaryType: "Permit",
      message
    })
    const args = [alice.address, bob.address, 3_000_000n, deadline, ...vrs(signature)]
    await usdc.write("permit", args, { from: carol })
    expect(await usdc.read("allowance", [alice.address, bob.address])).toBe(3_000_000n)
    expect(await usdc.read("nonces", [alice.address])).toBe(1n)
    await expect(usdc.write("permit", args, { from: carol })).rejects.toThrow("InvalidSignature")

    await usdc.write("transferFrom", [alice.address, carol.address, 3_000_000n], { from: bob })
    expect(await usdc.read("allowance", [alice.address, bob.address])).toBe(0n)
  })
})
