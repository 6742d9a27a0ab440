/**
 * Start-up checks of the venue file against the chain at `RPC_URL`: a wrong address or hash in the file
 * would price pools that do not exist or miss the ones that do, so the service refuses to start, naming
 * the entry. Checked: every contract has code; Permit2 is Permit2 (its EIP-712 domain separator is the
 * one Permit2 computes for this chain and address); each v3 fee tier's tick spacing is the factory's;
 * each init code hash puts a pool the factory created at its CREATE2 address; a per-pair v2 fee's getter
 * answers on that pair (./V2VenueCheck.ts).
 */
import { Effect, Layer, Schema } from "effect"
import {
  type Address,
  decodeAbiParameters,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  getCreate2Address,
  type Hex,
  keccak256,
  parseAbi,
  toHex
} from "viem"
import { RpcHex } from "../schema/Chain.js"
import type { RpcUnavailable } from "../schema/Errors.js"
import type { V3VenueEntry, VenueFile } from "../schema/VenueFile.js"
import { ChainRpc } from "./ChainRpc.js"
import { Deployment, VenueFileRefused } from "./Deployment.js"
import { initCodeHashFix } from "./InitCodeHashFound.js"
import { checkV2 } from "./V2VenueCheck.js"
import { contractsOf } from "./Venues.js"

const abi = parseAbi([
  "function DOMAIN_SEPARATOR() view returns (bytes32)",
  "function feeAmountTickSpacing(uint24) view returns (int24)"
])
type Read = (typeof abi)[number]["name"]

/** `PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24, address)` */
const POOL_CREATED = keccak256(toHex("PoolCreated(address,address,uint24,int24,address)"))

type Rpc = Pick<ChainRpc["Type"], "read">

const refuse = (message: string) => Effect.fail(new VenueFileRefused({ message }))

const call = (rpc: Rpc, to: string, functionName: Read, args: ReadonlyArray<unknown> = []) =>
  rpc.read(RpcHex, "eth_call", [{ to, data: encodeFunctionData({ abi, functionName, args } as never) }, "latest"])

const word = (hex: Hex): bigint => hex === "0x" ? 0n : BigInt(hex.slice(0, 66))
const addressOf = (hex: Hex): Address => `0x${hex.slice(26, 66)}`

const hasCode = Effect.fn("VenueChecks.hasCode")(function*(rpc: Rpc, entry: string, role: string, address: string) {
  const code = yield* rpc.read(RpcHex, "eth_getCode", [address, "latest"])
  if (code === "0x") return yield* refuse(`${entry}: ${role} ${getAddress(address)} has no code at the RPC`)
})

/** Permit2's domain separator: `keccak256(abi.encode(TYPE_HASH, keccak256("Permit2"), chainid, this))`. */
export const permit2DomainSeparator = (chainId: number, address: Address): Hex =>
  keccak256(encodeAbiParameters(
    [{ type: "bytes32" }, { type: "bytes32" }, { type: "uint256" }, { type: "address" }],
    [
      keccak256(toHex("EIP712Domain(string name,uint256 chainId,address verifyingContract)")),
      keccak256(toHex("Permit2")),
      BigInt(chainId),
      address
    ]
  ))

const checkPermit2 = Effect.fn("VenueChecks.permit2")(function*(rpc: Rpc, file: VenueFile) {
  yield* hasCode(rpc, "permit2", "Permit2", file.permit2)
  const separator = yield* call(rpc, file.permit2, "DOMAIN_SEPARATOR").pipe(Effect.orElseSucceed((): Hex => "0x"))
  if (separator.toLowerCase() !== permit2DomainSeparator(file.chainId, file.permit2)) {
    return yield* refuse(
      `permit2: the code at ${getAddress(file.permit2)} is not Permit2 (its domain separator is not Permit2's); ` +
        "name the chain's Permit2 (canonically 0x000000000022D473030F116dDEE9F6B43aC78BA3)"
    )
  }
})

const PoolLogs = Schema.Array(Schema.Struct({ topics: Schema.Array(RpcHex), data: RpcHex }))

const checkV3 = Effect.fn("VenueChecks.v3")(function*(rpc: Rpc, entry: typeof V3VenueEntry.Type, fromBlock: number) {
  for (const tier of entry.feeTiers) {
    const spacing = Number(BigInt.asIntN(24, word(yield* call(rpc, entry.factory, "feeAmountTickSpacing", [tier.fee]))))
    if (spacing !== tier.tickSpacing) {
      return yield* refuse(
        `venue ${entry.id}: fee tier ${tier.fee} has tick spacing ${spacing} at the factory (0: not enabled), ` +
          `the file says ${tier.tickSpacing}; set the factory's value (feeAmountTickSpacing(${tier.fee})), or ` +
          "drop the tier"
      )
    }
  }
  const logs = yield* rpc.read(PoolLogs, "eth_getLogs", [{
    address: entry.factory,
    topics: [POOL_CREATED],
    fromBlock: toHex(fromBlock),
    toBlock: "latest"
  }]).pipe(Effect.orElseSucceed((): typeof PoolLogs.Type => []))
  const created = logs[0]
  if (created === undefined) {
    return yield* Effect.logWarning(`venue ${entry.id}: no pool found from the factory; poolInitCodeHash unchecked`)
  }
  const [, token0, token1, fee] = created.topics
  const [, pool] = decodeAbiParameters([{ type: "int24" }, { type: "address" }], created.data)
  const salt = keccak256(encodeAbiParameters(
    [{ type: "address" }, { type: "address" }, { type: "uint24" }],
    [addressOf(token0 ?? "0x"), addressOf(token1 ?? "0x"), Number(word(fee ?? "0x"))]
  ))
  const deployer = entry.poolDeployer ?? entry.factory
  const expected = getCreate2Address({ from: deployer, salt, bytecodeHash: entry.poolInitCodeHash })
  if (expected.toLowerCase() !== pool.toLowerCase()) {
    const fix = yield* initCodeHashFix(rpc, deployer, salt, pool, "poolInitCodeHash")
    return yield* refuse(
      `venue ${entry.id}: poolInitCodeHash ${entry.poolInitCodeHash} is wrong: the factory's first pool ` +
        `${getAddress(pool)} is not at the CREATE2 address it gives, ${getAddress(expected)}${fix}`
    )
  }
})

/** Every check of the file; fails with the first disagreement, naming its entry. */
export const checkVenueFile = Effect.fn("VenueChecks.check")(function*(
  rpc: Rpc,
  file: VenueFile,
  chain: { readonly chainId: number; readonly startBlock: number }
): Effect.fn.Return<void, VenueFileRefused | RpcUnavailable> {
  if (file.chainId !== chain.chainId) {
    return yield* refuse(`chainId: the venue file is for chain ${file.chainId}, the RPC's is ${chain.chainId}`)
  }
  yield* checkPermit2(rpc, file)
  if (file.router !== undefined) yield* hasCode(rpc, "router", "router", file.router)
  for (const entry of file.venues) {
    for (const [role, address] of Object.entries(contractsOf(entry))) {
      yield* hasCode(rpc, `venue ${entry.id}`, role, address)
    }
    if (entry.family === "v2") yield* checkV2(rpc, entry)
    if (entry.family === "v3") yield* checkV3(rpc, entry, chain.startBlock)
  }
})

/**
 * The deployment, refused at start when its venue file disagrees with its chain. An RPC that does not
 * answer leaves the file unchecked (the service starts and waits for its chain), with a warning.
 */
export const checkedDeployment = <E, R>(deployment: Layer.Layer<Deployment, E, R>) =>
  Layer.effect(
    Deployment,
    Effect.gen(function*() {
      const shape = yield* Deployment
      const rpc = ChainRpc.make({ rpcUrl: shape.rpcUrl, chainId: shape.chainId })
      yield* checkVenueFile(rpc, shape.venues, shape).pipe(
        Effect.catchTag("RpcUnavailable", (error) =>
          Effect.logWarning(`venue file not checked: the RPC did not answer (${error.message})`))
      )
      yield* Effect.logInfo(`venue file checked: ${
        shape.venues.venues.map((venue) => venue.id).join(", ")
      }`)
      return shape
    })
  ).pipe(Layer.provide(deployment))
