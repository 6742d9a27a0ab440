/** A bare anvil from the devnet's own process module (no bootstrap, no state), stopped with `scope`. */
import { Effect, Exit, Option, Scope } from "effect"
import { startAnvil } from "../../devnet/anvilProcess.js"
import { devnetDefaults } from "../../devnet/DevnetConfig.js"

export const startPlainAnvil = (scope: Scope.CloseableScope) =>
  Effect.runPromise(
    startAnvil({
      host: devnetDefaults.host,
      port: 0,
      chainId: devnetDefaults.chainId,
      hardfork: devnetDefaults.hardfork,
      blockTime: Option.none(),
      loadState: Option.none(),
      genesisTimestamp: Option.none(),
      keptStates: Option.none()
    }).pipe(Scope.extend(scope), Effect.onError(() => Scope.close(scope, Exit.void)))
  )
