/** A manifest account driving the devnet through viem alone, as any integrator would. */
import { type Abi, type Address, erc20Abi, maxUint256, type PrivateKeyAccount } from "viem"
import type { Manifest } from "../../schema/Manifest.js"
import { clientsFor } from "./devnet.js"

/**
 * Gas for a call estimated now but mined in the next block. An estimate taken in one second can fall
 * short when the transaction lands in the next: Uniswap v2 and v3 write their price accumulators or an
 * oracle observation only on a new timestamp, and a pair's first accumulator write fills two fresh
 * slots (about 44,000 gas), more than a quarter of a small swap's estimate. Swaps reverted out of gas
 * on a loaded machine; a quarter more plus 50,000 absorbs that.
 */
export const withHeadroom = (estimate: bigint) => (estimate * 5n) / 4n + 50_000n

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
    const call = { account, address, abi, functionName, args, ...(value === undefined ? {} : { value }) } as never
    // The estimate also surfaces a revert with its reason, as before sending.
    const gas = withHeadroom(await reader.estimateContractGas(call))
    const hash = await wallet.writeContract({ ...(call as object), chain: clients.chain, gas } as never)
    const receipt = await reader.waitForTransactionReceipt({ hash })
    if (receipt.status !== "success") throw new Error(`${functionName} reverted`)
    return receipt
  }

  /** At `blockNumber` when given, else at the latest block. */
  const balanceOf = (token: Address, owner: Address = account.address, blockNumber?: bigint) =>
    reader.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [owner],
      ...(blockNumber === undefined ? {} : { blockNumber })
    })

  const transfer = (token: Address, to: Address, amount: bigint) => write(token, erc20Abi, "transfer", [to, amount])

  const approve = (token: Address, spender: Address, amount: bigint = maxUint256) =>
    write(token, erc20Abi, "approve", [spender, amount])

  /** Runs `action` and returns how much each `[token, owner]` balance changed. */
  const changes = async (
    entries: ReadonlyArray<readonly [token: Address, owner: Address]>,
    action: () => Promise<unknown>
  ) => {
    // Every balance at one block: reads at "latest" could straddle a block mined between them.
    const read = async () => {
      const blockNumber = await reader.getBlockNumber()
      return Promise.all(entries.map(([token, owner]) => balanceOf(token, owner, blockNumber)))
    }
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
