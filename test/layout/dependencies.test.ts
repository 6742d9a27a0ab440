/**
 * The layout's rules, checked on every `npm test` so they stay true: `schema/` (the contract) imports
 * only itself, `layers/` (the boundaries) only itself and `schema/`, nothing in the service imports the
 * devnet tooling except the entry points that start it, and no module reaches itself through its
 * imports (type-only imports included: a type cycle is still two modules that cannot be read apart).
 * The folders of `src/` are ranked (docs/architecture.md, "Folder rank"): a file imports its own folder
 * and folders ranked below it, never one ranked above or beside it, so folders do not circle either.
 * Only `layers/ChainRpc.ts` and `layers/chain/` open connections to the node (viem transports and clients,
 * websockets): everything else reaches the chain through `ChainRpc`, so every failure is `RpcUnavailable`.
 */
import { describe, expect, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, normalize, resolve } from "node:path"

const root = resolve(import.meta.dirname, "..", "..")
const folders = ["schema", "layers", "src", "devnet", "scripts"] as const

const sourceFiles = (folder: string): Array<string> =>
  readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts"))
    .map((name) => join(folder, name))

const specifier =
  /(?:^|\n)\s*(?:import|export)\s+(?:[\w$*{}\s,]+\s+from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g

/** Repository-relative `.ts` paths a file imports (relative specifiers only; packages are not ours). */
const importsOf = (file: string): Array<string> => {
  const text = readFileSync(join(root, file), "utf8")
  return [...text.matchAll(specifier)]
    .map((match) => match[1] ?? match[2]!)
    .filter((spec) => spec.startsWith("."))
    .map((spec) => normalize(join(dirname(file), spec)).replace(/\.js$/, ".ts"))
}

const graph = new Map(folders.flatMap(sourceFiles).map((file) => [file, importsOf(file)] as const))
const folderOf = (file: string) => file.split("/")[0]!

const offending = (from: string, allowed: ReadonlyArray<string>) =>
  [...graph].flatMap(([file, imports]) =>
    folderOf(file) === from
      ? imports.filter((target) => !allowed.includes(folderOf(target))).map((t) => `${file} -> ${t}`)
      : []
  )

/** `src/` folders from the bottom up; folders in one row are peers and import neither each other. */
const ranks: ReadonlyArray<ReadonlyArray<string>> = [
  ["client", "math"],
  ["indexer"],
  ["pricing"],
  ["routing"],
  ["execution"],
  ["safety"],
  ["search"],
  ["quote"],
  ["swap", "receipt"],
  ["payment"],
  ["operations"],
  ["mcp"],
  ["http"]
]
const rankOf = new Map(ranks.flatMap((row, rank) => row.map((folder) => [folder, rank] as const)))

/** The `src/` folder a file is in; undefined for a file directly in `src/` (the entry points) or outside it. */
const srcFolderOf = (file: string): string | undefined => {
  const parts = file.split("/")
  return parts[0] === "src" && parts.length > 2 ? parts[1] : undefined
}

/** Imports from a ranked folder into a folder ranked above or beside it, or into the entry points. */
const upward = () =>
  [...graph].flatMap(([file, imports]) => {
    const from = srcFolderOf(file)
    if (from === undefined) return []
    return imports.filter((target) => {
      if (folderOf(target) !== "src") return false
      const to = srcFolderOf(target)
      return to === undefined || (to !== from && !(rankOf.get(to)! < rankOf.get(from)!))
    }).map((target) => `${file} -> ${target}`)
  })

/** Strongly connected components of more than one module, or a module importing itself (Tarjan). */
const cycles = (): Array<Array<string>> => {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const found: Array<Array<string>> = []
  let counter = 0
  const visit = (node: string) => {
    index.set(node, counter)
    low.set(node, counter++)
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!))
    }
    if (low.get(node) !== index.get(node)) return
    const component: Array<string> = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return found
}

// What opens a connection to the node: viem's transports and client constructors, and websocket packages.
const transportNames = new Set([
  "http",
  "webSocket",
  "fallback",
  "custom",
  "ipc",
  "createClient",
  "createPublicClient",
  "createWalletClient",
  "createTestClient"
])
const socketPackages = new Set(["ws", "isomorphic-ws"])
const namedImport = /import\s+(type\s+)?\{([^}]*)\}\s*from\s*["']([^"']+)["']/g
const defaultImport = /import\s+[\w$]+\s+from\s*["']([^"']+)["']/g

/** What a file imports that opens a connection to the node, as `file: name`. */
const transportsOf = (file: string): Array<string> => {
  const text = readFileSync(join(root, file), "utf8")
  const named = [...text.matchAll(namedImport)].flatMap(([, typeOnly, names, from]) =>
    typeOnly !== undefined || !(from === "viem" || from!.startsWith("viem/")) ? [] : names!.split(",")
      .map((name) => name.trim().split(/\s+as\s+/)[0]!)
      .filter((name) => transportNames.has(name))
  )
  const sockets = [...text.matchAll(namedImport), ...text.matchAll(defaultImport)]
    .map((match) => match.at(-1)!)
    .filter((from) => socketPackages.has(from))
  return [...named, ...sockets, ...(/new\s+WebSocket\s*\(/.test(text) ? ["new WebSocket"] : [])]
    .map((name) => `${file}: ${name}`)
}

// scripts/ is left out: the demo, the benches and the operator's deploy script are the chain's users, as
// tests are, and talk to it with viem directly.
const serviceFiles = ["schema", "layers", "src", "devnet"].flatMap(sourceFiles)
const isChainBoundary = (file: string) => file === "layers/ChainRpc.ts" || file.startsWith("layers/chain/")

describe("layout", () => {
  it("reads every source file and resolves its relative imports", () => {
    expect(graph.size).toBeGreaterThan(100)
    // a single-line and a multi-line import, as the checker must see them
    expect(graph.get("src/App.ts")).toContain("layers/ChainRpc.ts")
    expect(graph.get("src/http/Api.ts")).toContain("schema/Errors.ts")
    const unresolved = [...graph].flatMap(([file, imports]) =>
      imports.filter((target) => !graph.has(target) && !target.startsWith("test/")).map((t) => `${file} -> ${t}`)
    )
    expect(unresolved).toEqual([])
  })

  it("schema/ imports only schema/", () => {
    expect(offending("schema", ["schema"])).toEqual([])
  })

  it("layers/ imports only layers/ and schema/", () => {
    expect(offending("layers", ["layers", "schema"])).toEqual([])
  })

  it("devnet/ tooling imports no service code", () => {
    expect(offending("devnet", ["devnet", "layers", "schema"])).toEqual([])
  })

  it("only the entry points start the devnet", () => {
    const entries = ["src/main.ts", "src/index.ts"]
    const users = [...graph].filter(([file, imports]) =>
      folderOf(file) === "src" && !entries.includes(file) && imports.some((target) => folderOf(target) === "devnet")
    )
    expect(users.map(([file]) => file)).toEqual([])
  })

  it("the agents' client (src/client) imports only itself and schema/: it never loads the server", () => {
    const client = [...graph].filter(([file]) => srcFolderOf(file) === "client")
    expect(client.length).toBeGreaterThan(3)
    const outside = client.flatMap(([file, imports]) =>
      imports.filter((target) => folderOf(target) !== "schema" && srcFolderOf(target) !== "client")
        .map((target) => `${file} -> ${target}`)
    )
    expect(outside).toEqual([])
  })

  it("every src/ folder has a rank", () => {
    const present = [...new Set([...graph.keys()].map(srcFolderOf).filter((folder) => folder !== undefined))]
    expect(present.filter((folder) => !rankOf.has(folder))).toEqual([])
  })

  it("src/ folders import only their own folder and folders ranked below it", () => {
    expect(upward()).toEqual([])
  })

  it("only layers/ChainRpc.ts and layers/chain/ open connections to the node", () => {
    const found = serviceFiles.flatMap(transportsOf)
    // the checker sees the boundary's own transports, so it would see anyone else's
    expect(found).toEqual(expect.arrayContaining([
      "layers/ChainRpc.ts: createPublicClient",
      "layers/ChainRpc.ts: http",
      "layers/chain/NewHeads.ts: ws"
    ]))
    expect(found.filter((entry) => !isChainBoundary(entry.split(":")[0]!))).toEqual([])
  })

  it("no import circle, type-only imports included", () => {
    expect(cycles()).toEqual([])
  })
})
