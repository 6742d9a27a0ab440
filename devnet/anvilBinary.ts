/**
 * Finds the anvil executable shipped by `@foundry-rs/anvil`'s platform package. Resolving the package
 * (instead of a hard path) keeps working when npm hoists or nests it, and needs no install script.
 */
import { Effect } from "effect"
import { createRequire } from "node:module"
import * as path from "node:path"
import { DevnetError } from "./DevnetError.js"

const archNames: Readonly<Record<string, string>> = { x64: "amd64", arm64: "arm64" }

export interface AnvilBinary {
  readonly path: string
  /** The package version: part of the bootstrap cache key (a new anvil may dump state differently). */
  readonly version: string
}

export const anvilBinary = Effect.try({
  try: (): AnvilBinary => {
    const require = createRequire(import.meta.url)
    const arch = archNames[process.arch] ?? process.arch
    const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`
    const manifestPath = require.resolve(`${pkg}/package.json`)
    const { version } = require(manifestPath) as { version: string }
    const exe = process.platform === "win32" ? "anvil.exe" : "anvil"
    return { path: path.join(path.dirname(manifestPath), "bin", exe), version }
  },
  catch: (cause) =>
    new DevnetError({
      message: `anvil binary for ${process.platform}/${process.arch} not found; run npm ci`,
      cause
    })
})
