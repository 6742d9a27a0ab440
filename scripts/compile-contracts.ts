/**
 * Builds build/contracts/<Name>.json ({ contractName, abi, bytecode, deployedBytecode }) for the devnet:
 * the project's contracts/**.sol and two Uniswap v4-core test routers, compiled offline by the bundled
 * solc-js, plus protocol artifacts that npm packages ship prebuilt (their bytecode must stay the audited
 * one, and v2/v3 need compilers solc-js does not bundle), plus two forks of Uniswap v2 built from its sources
 * (./compile-v2-fork.ts): one with another fee, one whose pairs each fix their fee at creation.
 *
 * build/contracts is committed, so a fresh clone starts without compiling (solc-js takes 8-30 s, most of
 * a cold start). The build is skipped when build/contracts/.hash matches: a digest of every source the
 * compiler read, the prebuilt artifacts, the solc version and the settings. It also lists the files the
 * import callback read from node_modules, so that an up-to-date run re-hashes them without loading the
 * 9 MB compiler. `--check` compiles afresh without writing and fails unless every committed file is
 * reproduced byte for byte (and no other is there): `npm test` runs it first, so an artifact that drifted
 * from its sources, or was edited by hand, fails CI. Its one status line goes to stderr:
 * `npm run --silent deploy-router` prints only the address on stdout.
 */
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { compileV2Variant, v2ForkSources } from "./compile-v2-fork.js"
import { v25ForkSources } from "./v25-fork-sources.js"

const root = resolve(import.meta.dirname, "..")
const outDir = join(root, "build", "contracts")
const hashFile = join(outDir, ".hash")
const nodeModules = join(root, "node_modules")

/** Compiled from node_modules as entry points; only the contracts defined in these files are written. */
const npmEntries = [
  "@uniswap/v4-core/src/test/PoolSwapTest.sol",
  "@uniswap/v4-core/src/test/PoolModifyLiquidityTest.sol"
]

/** Shipped compiled by their packages and copied as they are. */
const prebuilt: Record<string, string> = {
  UniswapV2Factory: "@uniswap/v2-core/build/UniswapV2Factory.json",
  UniswapV2Pair: "@uniswap/v2-core/build/UniswapV2Pair.json",
  UniswapV3Factory: "@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json",
  UniswapV3Pool: "@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json",
  SwapRouter: "@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json",
  NonfungiblePositionManager:
    "@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json",
  PoolManager: "@uniswap/v4-core/out/PoolManager.sol/PoolManager.json",
  // PancakeSwap v3's factory and pool; its pool deployer is not shipped (contracts/pancake/).
  PancakeV3Factory: "@pancakeswap/v3-core/artifacts/contracts/PancakeV3Factory.sol/PancakeV3Factory.json",
  PancakeV3Pool: "@pancakeswap/v3-core/artifacts/contracts/PancakeV3Pool.sol/PancakeV3Pool.json"
}

// v4-core's own build uses via-IR with cancun; its test routers and our hooks compile without IR, which
// is several times faster in solc-js. No metadata hash, so bytecode (and CREATE2 hook addresses) does
// not change with comments or file paths.
const settings = {
  evmVersion: "cancun",
  optimizer: { enabled: true, runs: 200 },
  metadata: { bytecodeHash: "none" },
  outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } }
}
// The router is deployed once and called for every trade: optimised for calls, not for its code size, and
// through the IR pipeline, whose code for its struct-heavy plan handling costs about 2,000-3,000 less gas a
// plan (docs/router.md, gas). Its own files import nothing of ours outside contracts/router/, so they
// compile apart.
const routerSettings = { ...settings, viaIR: true, optimizer: { enabled: true, runs: 1_000_000 } }
const isRouterSource = (file: string): boolean => /^contracts\/router\/[^/]+\.sol$/.test(file)

interface Artifact {
  readonly contractName: string
  readonly abi: ReadonlyArray<unknown>
  readonly bytecode: string
  readonly deployedBytecode: string
}

interface CompilerOutput {
  readonly errors?: ReadonlyArray<{ severity: string; formattedMessage: string; sourceLocation?: { file: string } }>
  readonly contracts?: Record<
    string,
    Record<
      string,
      { abi: ReadonlyArray<unknown>; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }
    >
  >
}

const ownSources = (): Record<string, string> => {
  const files = readdirSync(join(root, "contracts"), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".sol"))
    .sort()
  return Object.fromEntries(
    files.map((file) => [`contracts/${file}`, readFileSync(join(root, "contracts", file), "utf8")])
  )
}

const readNpm = (path: string): string => readFileSync(join(nodeModules, path), "utf8")

const digestOf = (sources: Record<string, string>, imports: ReadonlyArray<string>): string => {
  const hash = createHash("sha256")
  const solcVersion = JSON.parse(readNpm("solc/package.json")).version as string
  hash.update(
    JSON.stringify({
      solcVersion,
      settings,
      routerSettings,
      npmEntries,
      prebuilt,
      v2Fork: v2ForkSources(),
      v25Fork: v25ForkSources()
    })
  )
  for (const [name, content] of Object.entries(sources)) hash.update(`\0${name}\0${content}`)
  for (const path of [...imports, ...Object.values(prebuilt)]) hash.update(`\0${path}\0${readNpm(path)}`)
  return hash.digest("hex")
}

const isCached = (sources: Record<string, string>): boolean => {
  try {
    const recorded = JSON.parse(readFileSync(hashFile, "utf8")) as { digest: string; imports: ReadonlyArray<string> }
    return digestOf(sources, recorded.imports) === recorded.digest
  } catch {
    // No build yet, or a recorded import vanished from node_modules (the dependencies changed): rebuild.
    return false
  }
}

const hex = (code: string): string => (code.startsWith("0x") ? code : `0x${code}`)

/** npm packages ship Truffle (v2), Hardhat (v3) and Foundry (v4) layouts; all carry these fields. */
const fromPrebuilt = (contractName: string, path: string): Artifact => {
  type Code = string | { object: string }
  const json = JSON.parse(readNpm(path)) as {
    abi: ReadonlyArray<unknown>
    bytecode: Code
    deployedBytecode?: Code
    evm?: { deployedBytecode: Code }
  }
  const object = (code: Code | undefined): string => {
    if (code === undefined) throw new Error(`${path} has no deployed bytecode`)
    return hex(typeof code === "string" ? code : code.object)
  }
  return {
    contractName,
    abi: json.abi,
    bytecode: object(json.bytecode),
    deployedBytecode: object(json.deployedBytecode ?? json.evm?.deployedBytecode)
  }
}

const compile = async (sources: Record<string, string>): Promise<{ artifacts: Artifact[]; imports: string[] }> => {
  const solc = (await import("solc")).default
  const imports: string[] = []
  const findImports = (path: string): { contents: string } | { error: string } => {
    try {
      const contents = readNpm(path)
      imports.push(path)
      return { contents }
    } catch {
      return { error: `not found in node_modules: ${path}` }
    }
  }
  const run = (entries: Record<string, string>, options: typeof settings, written: Set<string>): Artifact[] => {
    const input = {
      language: "Solidity",
      sources: Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, { content: v }])),
      settings: options
    }
    const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })) as CompilerOutput
    const problems = (output.errors ?? []).filter(
      (e) => e.severity === "error" || e.sourceLocation?.file.startsWith("contracts/") === true
    )
    for (const problem of problems) console.error(problem.formattedMessage)
    if (problems.some((e) => e.severity === "error")) throw new Error("Solidity compilation failed")
    // Our own libraries and interfaces, and everything merely imported, have nothing to deploy.
    return Object.entries(output.contracts ?? {})
      .filter(([file]) => written.has(file))
      .flatMap(([, contracts]) => Object.entries(contracts))
      .filter(([, c]) => c.evm.bytecode.object !== "" && c.abi.length > 0)
      .map(([contractName, c]) => ({
        contractName,
        abi: c.abi,
        bytecode: hex(c.evm.bytecode.object),
        deployedBytecode: hex(c.evm.deployedBytecode.object)
      }))
  }
  const router = Object.fromEntries(Object.entries(sources).filter(([file]) => isRouterSource(file)))
  const rest = Object.fromEntries(Object.entries(sources).filter(([file]) => !isRouterSource(file)))
  for (const path of npmEntries) rest[path] = readNpm(path)
  const artifacts = [
    ...run(rest, settings, new Set(Object.keys(rest))),
    ...run(router, routerSettings, new Set(Object.keys(router)))
  ]
  return { artifacts, imports: [...new Set(imports)].sort() }
}

/** Every file of build/contracts, named and as written: the artifacts and the `.hash` record. */
const buildFiles = async (sources: Record<string, string>): Promise<Map<string, string>> => {
  const { artifacts, imports } = await compile(sources)
  artifacts.push(
    ...Object.entries(prebuilt).map(([name, path]) => fromPrebuilt(name, path)),
    ...compileV2Variant(v2ForkSources(), "UniswapV2Fork20"),
    ...compileV2Variant(v25ForkSources(), "UniswapV25")
  )
  const names = artifacts.map((a) => a.contractName)
  const clash = names.find((name, i) => names.indexOf(name) !== i)
  if (clash !== undefined) throw new Error(`two contracts are named ${clash}; artifact names must be unique`)
  const files = new Map(artifacts.map((a) => [`${a.contractName}.json`, `${JSON.stringify(a, null, 2)}\n`]))
  files.set(".hash", `${JSON.stringify({ digest: digestOf(sources, imports), imports }, null, 2)}\n`)
  return files
}

/** The committed files that a fresh compile does not reproduce byte for byte, and why. */
const drift = (fresh: Map<string, string>): ReadonlyArray<string> => {
  const committed = new Set(existsSync(outDir) ? readdirSync(outDir) : [])
  const problems: Array<string> = []
  for (const [name, content] of fresh) {
    if (!committed.has(name)) problems.push(`${name}: missing`)
    else if (readFileSync(join(outDir, name), "utf8") !== content) problems.push(`${name}: differs`)
  }
  for (const name of committed) if (!fresh.has(name)) problems.push(`${name}: no source produces it`)
  return problems
}

const main = async (): Promise<void> => {
  const started = performance.now()
  const elapsed = (): string => `${Math.round(performance.now() - started)} ms`
  const sources = ownSources()
  if (process.argv.includes("--check")) {
    const problems = drift(await buildFiles(sources))
    if (problems.length === 0) {
      console.error(`contracts: build/contracts is what the sources compile to, ${elapsed()}`)
      return
    }
    console.error(
      `contracts: build/contracts is not what the sources compile to (${problems.join("; ")}): ` +
        "run npm run build:contracts and commit build/contracts"
    )
    process.exitCode = 1
    return
  }
  if (isCached(sources)) {
    console.error(`contracts: up to date, ${elapsed()}`)
    return
  }
  const files = await buildFiles(sources)
  rmSync(outDir, { recursive: true, force: true })
  mkdirSync(outDir, { recursive: true })
  for (const [name, content] of files) writeFileSync(join(outDir, name), content)
  console.error(`contracts: compiled ${files.size - 1} artifacts, ${elapsed()}`)
}

await main()
