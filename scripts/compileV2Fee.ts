/**
 * A v2-family venue whose fee is not 0.3 %: no npm package ships a prebuilt v2 fork with another fee
 * (SushiSwap's `@sushiswap/core` ships ABIs only), so Uniswap v2-core's own sources are compiled here
 * with the 0.3 % fee changed to 0.2 % (`amountIn.mul(3)` → `mul(2)` in the pair's K check), by the solc
 * Uniswap used (0.5.16) and its settings. The factory deploys this pair, so its init code hash is the
 * modified pair's. Written as `LowFeeV2Factory` / `LowFeeV2Pair`.
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"

/** The fork's fee in thousandths: the pair charges `FEE_PER_MILLE / 1000` of the input. */
export const LOW_FEE_PER_MILLE = 2

const ORIGINAL = "mul(3)"
const root = join(import.meta.dirname, "..", "node_modules", "@uniswap", "v2-core", "contracts")
/** Uniswap v2-core's waffle settings: istanbul, 999999 optimizer runs. */
const settings = {
  evmVersion: "istanbul",
  optimizer: { enabled: true, runs: 999_999 },
  outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } }
}

const read = (path: string): string => readFileSync(join(root, path), "utf8")

/** The sources as compiled: the pair with the fee changed, the rest as shipped. */
export const lowFeeSources = (): Record<string, string> => {
  const pair = read("UniswapV2Pair.sol")
  if (pair.split(ORIGINAL).length !== 3) throw new Error("UniswapV2Pair.sol: expected the fee twice in swap()")
  return {
    "UniswapV2Factory.sol": read("UniswapV2Factory.sol"),
    "UniswapV2Pair.sol": pair.replaceAll(ORIGINAL, `mul(${LOW_FEE_PER_MILLE})`)
  }
}

interface Output {
  readonly errors?: ReadonlyArray<{ severity: string; formattedMessage: string }>
  readonly contracts: Record<
    string,
    Record<
      string,
      { abi: ReadonlyArray<unknown>; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }
    >
  >
}

export const compileLowFeeV2 = () => {
  // solc-js 0.5 ships no type declarations.
  const solc = createRequire(import.meta.url)("solc-0516") as { compile: (input: string, options: unknown) => string }
  const sources = lowFeeSources()
  const findImports = (path: string) => {
    try {
      return { contents: sources[path] ?? read(path) }
    } catch {
      return { error: `not found: ${path}` }
    }
  }
  const input = {
    language: "Solidity",
    sources: Object.fromEntries(Object.entries(sources).map(([k, v]) => [k, { content: v }])),
    settings
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })) as Output
  const errors = (output.errors ?? []).filter((e) => e.severity === "error")
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join("\n"))
  const artifact = (file: string, name: string, as: string) => {
    const compiled = output.contracts[file]?.[name]
    if (compiled === undefined) throw new Error(`no ${name} in the v2 output`)
    return {
      contractName: as,
      abi: compiled.abi,
      bytecode: `0x${compiled.evm.bytecode.object}`,
      deployedBytecode: `0x${compiled.evm.deployedBytecode.object}`
    }
  }
  return [
    artifact("UniswapV2Factory.sol", "UniswapV2Factory", "LowFeeV2Factory"),
    artifact("UniswapV2Pair.sol", "UniswapV2Pair", "LowFeeV2Pair")
  ]
}
