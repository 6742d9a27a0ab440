/**
 * Test fixture: starts a private devnet, prints its RPC URL and waits to be killed. The lifecycle test
 * SIGKILLs this process (no handler runs) and checks that anvil goes away anyway.
 */
import { NodeContext } from "@effect/platform-node"
import { Effect, Option } from "effect"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { devnetDefaults } from "../../devnet/DevnetConfig.js"
import { startDevnet } from "../../devnet/startDevnet.js"

const program = Effect.gen(function*() {
  const devnet = yield* startDevnet({
    ...devnetDefaults,
    port: 0,
    manifestPath: join(tmpdir(), `arc-devnet-orphan-${process.pid}.json`),
    cacheDir: Option.some(process.env["DEVNET_CACHE_DIR"] ?? ".cache/devnet"),
    verbose: false
  })
  process.stdout.write(`${devnet.manifest.rpcUrl}\n`)
  return yield* Effect.never
})

Effect.runFork(program.pipe(Effect.scoped, Effect.provide(NodeContext.layer)))
