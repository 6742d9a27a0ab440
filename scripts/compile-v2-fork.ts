/**
 * Uniswap v2 forks built from v2-core's own sources by solc 0.5.16 (the version and optimizer settings
 * v2-core was built with): `v2CoreSources` and `compileV2Variant` for any variant, and here the 0.2 %
 * fork (the v2.5 fork that fixes each pair's fee is ./v25-fork-sources.ts).
 *
 * The 0.2 % fork, for tests of the router's per-venue fee rule and pool check: the canonical @uniswap/v2-core sources with the pair's swap fee changed from 0.3 % to 0.2 % (its K check
 * subtracts 2/1000 of the input instead of 3/1000) and nothing else. The factory embeds the changed pair's creation
 * code, so the fork's pairs have their own init code hash, as a real fork's do. npm has no installable
 * v2 fork with another fee that ships its bytecode, hence this build; it is a test venue, not a protocol.
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

const require = createRequire(import.meta.url)
const coreDir = join(dirname(require.resolve("@uniswap/v2-core/package.json")), "contracts")

const FEE_FROM = "amount0In.mul(3)"
const FEE_FROM_1 = "amount1In.mul(3)"

const coreFiles = [
  "UniswapV2Factory.sol",
  "UniswapV2Pair.sol",
  "UniswapV2ERC20.sol",
  "interfaces/IERC20.sol",
  "interfaces/IUniswapV2Callee.sol",
  "interfaces/IUniswapV2ERC20.sol",
  "interfaces/IUniswapV2Factory.sol",
  "interfaces/IUniswapV2Pair.sol",
  "libraries/Math.sol",
  "libraries/SafeMath.sol",
  "libraries/UQ112x112.sol"
]

/** v2-core's own sources as its package ships them, keyed as v2-core names them. */
export const v2CoreSources = (): Record<string, string> =>
  Object.fromEntries(coreFiles.map((file) => [file, readFileSync(join(coreDir, file), "utf8")]))

/** The 0.2 % fork's sources: v2-core with the pair's fee patched. */
export const v2ForkSources = (): Record<string, string> => {
  const sources = v2CoreSources()
  const pair = sources["UniswapV2Pair.sol"]!
  if (!pair.includes(FEE_FROM) || !pair.includes(FEE_FROM_1)) {
    throw new Error("v2-core's pair no longer has the 0.3 % fee line")
  }
  return {
    ...sources,
    "UniswapV2Pair.sol": pair.replace(FEE_FROM, "amount0In.mul(2)").replace(FEE_FROM_1, "amount1In.mul(2)")
  }
}

interface LegacyOutput {
  readonly errors?: ReadonlyArray<{ severity: string; formattedMessage: string }>
  readonly contracts: Record<
    string,
    Record<
      string,
      { abi: ReadonlyArray<unknown>; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }
    >
  >
}

/** A v2-core variant's factory and pair as artifacts named `<prefix>Factory` and `<prefix>Pair`, in
 * compile-contracts' layout. */
export const compileV2Variant = (sources: Record<string, string>, prefix: string) => {
  // solc-js 0.5.16 ships no types; its wrapper's compile takes and returns standard JSON.
  const solc: { compile: (input: string) => string } = require("solc-0.5.16")
  const input = {
    language: "Solidity",
    sources: Object.fromEntries(Object.entries(sources).map(([name, content]) => [name, { content }])),
    settings: {
      evmVersion: "istanbul",
      optimizer: { enabled: true, runs: 999_999 },
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } }
    }
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as LegacyOutput
  const errors = (output.errors ?? []).filter((e) => e.severity === "error")
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join("\n"))
  const artifact = (file: string, contract: string, contractName: string) => {
    const compiled = output.contracts[file]?.[contract]
    if (compiled === undefined) throw new Error(`solc 0.5.16 produced no ${contract}`)
    return {
      contractName,
      abi: compiled.abi,
      bytecode: `0x${compiled.evm.bytecode.object}`,
      deployedBytecode: `0x${compiled.evm.deployedBytecode.object}`
    }
  }
  return [
    artifact("UniswapV2Factory.sol", "UniswapV2Factory", `${prefix}Factory`),
    artifact("UniswapV2Pair.sol", "UniswapV2Pair", `${prefix}Pair`)
  ]
}
