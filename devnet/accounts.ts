/**
 * Anvil's well-known mnemonic accounts. Clients get the first eight; the last two are the devnet's own:
 * a treasury that receives token taxes and hook fees, and the deployer that owns the test tokens and
 * provides the seeded liquidity.
 */
import { pbkdf2Sync } from "node:crypto"
import { type Address, bytesToHex, type Hex } from "viem"
import { HDKey, privateKeyToAddress } from "viem/accounts"

export const ANVIL_MNEMONIC = "test test test test test test test test test test test junk"

export interface DevAccount {
  readonly address: Address
  readonly privateKey: Hex
}

/** BIP-39 seed (PBKDF2 over the NFKD phrase) derived once, then BIP-44 paths m/44'/60'/0'/0/i. */
const deriveAll = (count: number): ReadonlyArray<DevAccount> => {
  const seed = pbkdf2Sync(ANVIL_MNEMONIC.normalize("NFKD"), "mnemonic", 2048, 64, "sha512")
  const root = HDKey.fromMasterSeed(seed)
  return Array.from({ length: count }, (_, i) => {
    const key = root.derive(`m/44'/60'/0'/0/${i}`).privateKey
    if (key === null) throw new Error(`no private key at index ${i}`)
    const privateKey = bytesToHex(key)
    return { address: privateKeyToAddress(privateKey), privateKey }
  })
}

let cached: ReadonlyArray<DevAccount> | undefined

/** The ten accounts anvil funds at genesis. */
export const anvilAccounts = (): ReadonlyArray<DevAccount> => (cached ??= deriveAll(10))

export const CLIENT_ACCOUNTS = 8

export const roles = () => {
  const all = anvilAccounts()
  return {
    clients: all.slice(0, CLIENT_ACCOUNTS),
    treasury: all[8] as DevAccount,
    deployer: all[9] as DevAccount
  }
}

/** The devnet's x402 settings: fees go to the treasury, which also settles them in-process. */
export const devnetPaymentSettings = (): Readonly<Record<string, string>> => {
  const { treasury } = roles()
  return { PAY_TO: treasury.address, SETTLEMENT_PRIVATE_KEY: treasury.privateKey }
}
