/**
 * Reads a V8 `.cpuprofile` (written by `node --cpu-prof`) and prints where the time went: the functions
 * with the most self time, the functions with the most time including their callees (each counted once
 * per sample, so recursion does not inflate it), and self time by package or project folder.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { figure } from "./report.js"

interface ProfileNode {
  readonly id: number
  readonly callFrame: {
    readonly functionName: string
    readonly url: string
    readonly lineNumber: number
  }
  readonly children?: ReadonlyArray<number>
}

interface Profile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

const shortUrl = (url: string): string => {
  const inModules = url.lastIndexOf("node_modules/")
  if (inModules >= 0) return url.slice(inModules + "node_modules/".length)
  const inProject = url.search(/\/(src|layers|schema|scripts|devnet)\//)
  return inProject >= 0 ? url.slice(inProject + 1) : url.replace(/^file:\/\//, "")
}

const where = (url: string): string => {
  const file = shortUrl(url)
  if (file === "") return "(native, gc, idle)"
  if (file.startsWith("node:")) return "node internals"
  const parts = file.split("/")
  return parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!.includes(".") ? file : parts[0]!
}

const label = (node: ProfileNode): string =>
  `${node.callFrame.functionName || "(anonymous)"} ${shortUrl(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`

const top = (title: string, totals: Map<string, number>, all: number, count: number) => {
  console.log(`   ${title}`)
  for (const [name, micros] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, count)) {
    figure(`  ${(100 * micros / all).toFixed(1).padStart(5)} %`, name)
  }
}

/** Prints the summary of the profile at `path`; idle time is left out of the percentages. */
export const summarise = (path: string, count = 25) => {
  const profile = JSON.parse(readFileSync(path, "utf8")) as Profile
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const self = new Map<string, number>()
  const inclusive = new Map<string, number>()
  const byPlace = new Map<string, number>()
  let busy = 0
  profile.samples.forEach((id, index) => {
    const node = byId.get(id)!
    const micros = profile.timeDeltas[index] ?? 0
    if (node.callFrame.functionName === "(idle)") return
    busy += micros
    self.set(label(node), (self.get(label(node)) ?? 0) + micros)
    byPlace.set(where(node.callFrame.url), (byPlace.get(where(node.callFrame.url)) ?? 0) + micros)
    const seen = new Set<string>()
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = label(byId.get(at)!)
      if (!seen.has(name)) inclusive.set(name, (inclusive.get(name) ?? 0) + micros)
      seen.add(name)
    }
  })
  figure(`profile ${shortUrl(path)}`, `${(busy / 1e6).toFixed(1)} s busy`)
  top("self time by package or folder", byPlace, busy, 15)
  top("self time by function", self, busy, count)
  top("time including callees", inclusive, busy, count)
}

/** The largest profile in `dir`: the main thread's, beside the smaller ones of worker threads. */
export const mainThreadProfile = (dir: string): string =>
  readdirSync(dir)
    .filter((file) => file.endsWith(".cpuprofile"))
    .map((file) => join(dir, file))
    .sort((a, b) => statSync(b).size - statSync(a).size)[0]!
