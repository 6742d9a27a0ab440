/**
 * Compiles a benchmark fixture (`MarketBuilder.sol` unless named: a path and its contract) with the bundled
 * solc-js (a few seconds; only when the market is built).
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import type { Abi, Hex } from "viem"

export interface Compiled {
  readonly abi: Abi
  readonly bytecode: Hex
}

export const compileBuilder = async (
  path = join(import.meta.dirname, "MarketBuilder.sol"),
  contractName = "MarketBuilder"
): Promise<Compiled> => {
  const solc = (await import("solc")).default
  const source = readFileSync(path, "utf8")
  const output = JSON.parse(solc.compile(JSON.stringify({
    language: "Solidity",
    sources: { "fixture.sol": { content: source } },
    settings: {
      evmVersion: "cancun",
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { "*": { [contractName]: ["abi", "evm.bytecode.object"] } }
    }
  }))) as {
    errors?: ReadonlyArray<{ severity: string; formattedMessage: string }>
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>
  }
  const errors = (output.errors ?? []).filter((error) => error.severity === "error")
  if (errors.length > 0) throw new Error(errors.map((error) => error.formattedMessage).join("\n"))
  const contract = output.contracts["fixture.sol"]![contractName]!
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` }
}
