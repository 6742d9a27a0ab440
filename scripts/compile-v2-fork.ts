/**
 * A Uniswap v2 fork with another fee, for tests of the router's per-venue fee rule and pool check: the
 * canonical @uniswap/v2-core sources with the pair's swap fee changed from 0.3 % to 0.2 % (its K check
 * subtracts 2/1000 of the input instead of 3/1000) and nothing else, compiled by solc 0.5.16 (the
 * version and optimizer settings v2-core was built with). The factory embeds the changed pair's creation
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

/** The fork's sources, keyed as v2-core names them, with the pair's fee patched. */
export const v2ForkSources = (): Record<string, string> => {
  const read = (file: string) => readFileSync(join(coreDir, file), "utf8")
  const pair = read("UniswapV2Pair.sol")
  if (!pair.includes(FEE_FROM) || !pair.includes(FEE_FROM_1)) {
    throw new Error("v2-core's pair no longer has the 0.3 % fee line")
  }
  const files = [
    "UniswapV2Factory.sol",
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
  return {
    ...Object.fromEntries(files.map((file) => [file, read(file)])),
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

/** Artifacts `UniswapV2Fork20Factory` and `UniswapV2Fork20Pair`, in compile-contracts' layout. */
export const compileV2Fork = () => {
  // solc-js 0.5.16 ships no types; its wrapper's compile takes and returns standard JSON.
  const solc: { compile: (input: string) => string } = require("solc-0.5.16")
  const input = {
    language: "Solidity",
    sources: Object.fromEntries(Object.entries(v2ForkSources()).map(([name, content]) => [name, { content }])),
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
    artifact("UniswapV2Factory.sol", "UniswapV2Factory", "UniswapV2Fork20Factory"),
    artifact("UniswapV2Pair.sol", "UniswapV2Pair", "UniswapV2Fork20Pair")
  ]
}
