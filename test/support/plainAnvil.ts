/** A bare anvil (no contracts, no state) in `scope`: for tests of the chain boundary alone. */
import { Effect, Option, Scope } from "effect"
import { startAnvil } from "../../devnet/anvilProcess.js"
import { devnetDefaults } from "../../devnet/DevnetConfig.js"

export const startPlainAnvil = (scope: Scope.Scope) =>
  Effect.runPromise(
    startAnvil({
      host: "127.0.0.1",
      port: 0,
      chainId: devnetDefaults.chainId,
      hardfork: devnetDefaults.hardfork,
      blockTime: Option.none(),
      loadState: Option.none(),
      genesisTimestamp: Option.none()
    }).pipe(Scope.extend(scope))
  )
