/** A manifest account driving the devnet through viem alone, as any integrator would. */
import { type Abi, type Address, erc20Abi, maxUint256, type PrivateKeyAccount } from "viem"
import type { Manifest } from "../../schema/Manifest.js"
import { clientsFor } from "./devnet.js"

export const walletFor = (manifest: Manifest, account: PrivateKeyAccount) => {
  const clients = clientsFor(manifest, account)
  const { public: reader, wallet } = clients

  /** Sends a contract call and fails the test unless it was mined successfully. */
  const write = async (
    address: Address,
    abi: Abi,
    functionName: string,
    args: ReadonlyArray<unknown>,
    value?: bigint
  ) => {
    const hash = await wallet.writeContract({
      account,
      chain: clients.chain,
      address,
      abi,
      functionName,
      args,
      ...(value === undefined ? {} : { value })
    } as never)
    const receipt = await reader.waitForTransactionReceipt({ hash })
    if (receipt.status !== "success") throw new Error(`${functionName} reverted`)
    return receipt
  }

  const balanceOf = (token: Address, owner: Address = account.address) =>
    reader.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [owner] })

  const transfer = (token: Address, to: Address, amount: bigint) => write(token, erc20Abi, "transfer", [to, amount])

  const approve = (token: Address, spender: Address, amount: bigint = maxUint256) =>
    write(token, erc20Abi, "approve", [spender, amount])

  /** Runs `action` and returns how much each `[token, owner]` balance changed. */
  const changes = async (
    entries: ReadonlyArray<readonly [token: Address, owner: Address]>,
    action: () => Promise<unknown>
  ) => {
    const read = () => Promise.all(entries.map(([token, owner]) => balanceOf(token, owner)))
    const before = await read()
    await action()
    const after = await read()
    return after.map((value, i) => value - (before[i] ?? 0n))
  }

  /** Runs `action` and returns how much `token` balances of `owners` changed. */
  const deltas = (token: Address, owners: ReadonlyArray<Address>, action: () => Promise<unknown>) =>
    changes(owners.map((owner) => [token, owner] as const), action)

  return { account, address: account.address, ...clients, write, balanceOf, transfer, approve, changes, deltas }
}

export type Wallet = ReturnType<typeof walletFor>
