/**
 * `npm run devnet`: the embedded devnet alone. Prints the RPC URL and the manifest path, then serves
 * until Ctrl-C, which closes the layer's scope and stops anvil.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Console, Effect, Layer } from "effect"
import { Devnet } from "../devnet/Devnet.js"

const announce = Layer.effectDiscard(
  Effect.gen(function*() {
    const devnet = yield* Devnet
    const { manifest, timings } = devnet
    yield* Console.log([
      "",
      `  RPC URL    ${manifest.rpcUrl}   (chain id ${manifest.chainId})`,
      `  manifest   ${devnet.manifestPath}`,
      `  accounts   ${manifest.accounts.length} funded (anvil's test mnemonic), e.g. ${manifest.accounts[0]?.address}`,
      `  contracts  ${Object.keys(manifest.contracts).length} roles, ${manifest.pools?.length ?? 0} pools, ${
        Object.keys(manifest.tokens ?? {}).length
      } tokens`,
      `  started    ${timings.totalMs} ms from ${devnet.source}${
        devnet.source === "bootstrap" ? ` (bootstrap ${timings.bootstrapMs} ms)` : ""
      }`,
      "",
      "  Ctrl-C to stop.",
      ""
    ].join("\n"))
  })
)

Layer.launch(announce.pipe(Layer.provide(Devnet.layerConfig))).pipe(NodeRuntime.runMain)
