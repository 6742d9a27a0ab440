/**
 * The devnet's deployer as the venues benchmark drives it: deploys and writes that wait for their
 * receipt and fail on a revert, and anvil's own requests. The deployer owns the devnet's hub tokens, so
 * it can mint them.
 */
import { type Abi, type Address, createPublicClient, createWalletClient, type Hex, http } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { roles } from "../../../../devnet/accounts.js"
import { arcChain } from "../../../../layers/ChainRpc.js"
import type { Manifest } from "../../../../schema/Manifest.js"

export interface Write {
  readonly address: Address
  readonly abi: Abi
  readonly functionName: string
  readonly args?: ReadonlyArray<unknown>
  readonly value?: bigint
  readonly gas?: bigint
}

export interface Chain {
  readonly deployer: Address
  readonly anvil: (method: string, params: ReadonlyArray<unknown>) => Promise<unknown>
  /** Deploys and resolves with the contract's address. */
  readonly deploy: (abi: Abi, bytecode: Hex, args: ReadonlyArray<unknown>) => Promise<Address>
  readonly write: (call: Write) => Promise<void>
}

export const chainOf = (manifest: Manifest): Chain => {
  const chain = arcChain({ chainId: manifest.chainId, rpcUrl: manifest.rpcUrl })
  const { deployer } = roles()
  const client = createPublicClient({ chain, transport: http(manifest.rpcUrl), cacheTime: 0 })
  const wallet = createWalletClient({
    chain,
    transport: http(manifest.rpcUrl),
    account: privateKeyToAccount(deployer.privateKey)
  })
  const receipt = async (hash: Promise<Hex>) => {
    const mined = await client.waitForTransactionReceipt({ hash: await hash, pollingInterval: 5 })
    if (mined.status !== "success") throw new Error(`transaction ${mined.transactionHash} reverted`)
    return mined
  }
  return {
    deployer: deployer.address,
    anvil: (method, params) => client.request({ method: method as never, params: params as never }),
    deploy: async (abi, bytecode, args) =>
      (await receipt(wallet.deployContract({ abi, bytecode, args } as never))).contractAddress!,
    write: async (call) => {
      await receipt(wallet.writeContract(call as never))
    }
  }
}
