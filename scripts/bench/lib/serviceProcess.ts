/**
 * The service in its own process as `npm start` runs it, pointed at a benchmark's devnet with `RPC_URL`,
 * paid by the devnet's x402 settings, settling `broadcast`, its data in `dataDir`: what an operator
 * runs, measured from outside. Its node options are `npm start`'s defaults, then `env.NODE_OPTIONS`.
 */
import { extname, join, resolve } from "node:path"
import { devnetPaymentSettings } from "../../../devnet/accounts.js"
import { websocketOf } from "../../../layers/ChainRpc.js"
import { serviceNodeOptions } from "../../serviceNodeOptions.js"
import type { benchDevnet } from "./devnet.js"
import { serve } from "./edgeLoad.js"

export const serviceProcess = (
  devnet: Awaited<ReturnType<typeof benchDevnet>>,
  dataDir: string,
  env: Readonly<Record<string, string>> = {}
) => {
  const port = 19_000 + Math.floor(Math.random() * 2_000)
  return serve(
    "service",
    resolve(import.meta.dirname, `../../../src/main${extname(import.meta.filename)}`),
    [],
    port,
    {
      ...devnetPaymentSettings(),
      PORT: String(port),
      RPC_URL: devnet.manifest.rpcUrl,
      WS_URL: websocketOf(devnet.manifest.rpcUrl),
      MANIFEST_PATH: devnet.handle.manifestPath,
      DATA_DIR: join(dataDir, "data"),
      SETTLEMENT_MODE: "broadcast",
      ...env,
      NODE_OPTIONS: serviceNodeOptions(env["NODE_OPTIONS"] ?? process.env["NODE_OPTIONS"])
    },
    undefined
  )
}
