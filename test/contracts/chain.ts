/**
 * A private bare anvil per test file (the devnet's chain id and hardfork, automine, no bootstrap) with
 * viem clients over its default mnemonic accounts, and a thin way to deploy and call the compiled
 * contracts.
 */
import { Effect, Exit, Scope } from "effect"
import {
  type Abi,
  type Address,
  type Chain as ViemChain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hex,
  http,
  type PublicClient,
  type TestClient,
  type TransactionReceipt,
  type Transport,
  type WalletClient
} from "viem"
import { type HDAccount, mnemonicToAccount } from "viem/accounts"
import { type ArtifactName, loadArtifact } from "../../devnet/Artifacts.js"
import { startPlainAnvil } from "../support/plainAnvil.js"
import { withHeadroom } from "../support/wallet.js"

const mnemonic = "test test test test test test test test test test test junk"

/** A bare anvil from the devnet's own process module: no bootstrap, stopped with `stop()`. */
const startAnvil = async (): Promise<{ url: string; stop: () => Promise<void> }> => {
  const scope = Effect.runSync(Scope.make())
  const anvil = await startPlainAnvil(scope)
  return { url: anvil.rpcUrl, stop: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

export interface Deployed {
  readonly address: Address
  readonly read: (functionName: string, args?: ReadonlyArray<unknown>) => Promise<unknown>
  /** Sends the call from `from` (default: the deployer) and resolves once it is mined successfully. */
  readonly write: (
    functionName: string,
    args?: ReadonlyArray<unknown>,
    options?: { readonly from?: HDAccount; readonly value?: bigint }
  ) => Promise<TransactionReceipt>
}

export interface Chain {
  readonly chain: ViemChain
  readonly publicClient: PublicClient<Transport, ViemChain>
  readonly walletClient: WalletClient<Transport, ViemChain>
  readonly testClient: TestClient<"anvil", Transport, ViemChain>
  /** The first accounts of anvil's default mnemonic, each funded with native USDC. */
  readonly accounts: ReadonlyArray<HDAccount>
  /** accounts[0]: deploys everything, so it owns every token. */
  readonly deployer: HDAccount
  readonly send: (hash: Promise<Hex>) => Promise<TransactionReceipt>
  readonly at: (abi: Abi, address: Address) => Deployed
  readonly deploy: (name: ArtifactName, args?: ReadonlyArray<unknown>) => Promise<Deployed>
  readonly stop: () => Promise<void>
}

export const startChain = async (): Promise<Chain> => {
  const anvil = await startAnvil()
  const chain = defineChain({
    id: 5042,
    name: "Arc devnet",
    nativeCurrency: { name: "USDC", symbol: "USDC", decimals: 18 },
    rpcUrls: { default: { http: [anvil.url] } }
  })
  const transport = http(anvil.url)
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 50 })
  const walletClient = createWalletClient({ chain, transport })
  const testClient = createTestClient({ chain, transport, mode: "anvil" })
  const accounts = Array.from({ length: 5 }, (_, addressIndex) => mnemonicToAccount(mnemonic, { addressIndex }))
  const deployer = accounts[0]!

  const send = async (hash: Promise<Hex>): Promise<TransactionReceipt> => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash: await hash })
    if (receipt.status !== "success") throw new Error(`transaction ${receipt.transactionHash} reverted`)
    return receipt
  }

  const at = (abi: Abi, target: Address): Deployed => {
    // Checksummed, as viem returns addresses read from contracts, so that === comparisons hold.
    const address = getAddress(target)
    return {
      address,
      read: (functionName, args = []) => publicClient.readContract({ address, abi, functionName, args }),
      write: async (functionName, args = [], { from = deployer, value } = {}) => {
        const call = { address, abi, functionName, args, account: from, ...(value === undefined ? {} : { value }) }
        // The estimate also surfaces a revert with its reason, as before sending.
        const gas = withHeadroom(await publicClient.estimateContractGas(call))
        return send(walletClient.writeContract({ ...call, chain, gas }))
      }
    }
  }

  const deploy = async (name: ArtifactName, args: ReadonlyArray<unknown> = []): Promise<Deployed> => {
    const { abi, bytecode } = loadArtifact(name)
    const receipt = await send(walletClient.deployContract({ abi, bytecode, args, account: deployer, chain }))
    return at(abi, receipt.contractAddress!)
  }

  return { publicClient, walletClient, testClient, accounts, deployer, chain, send, at, deploy, stop: anvil.stop }
}
