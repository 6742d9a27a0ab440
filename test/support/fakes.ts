/**
 * Fakes of the boundaries, for faults a real part cannot be made to produce. A fake implements what
 * its test needs; touching anything else dies with the member's name instead of returning `undefined`.
 */
import type { Context } from "effect"
import { Effect } from "effect"
import type { ChainRpc } from "../../layers/ChainRpc.js"

const unimplemented = (service: string, member: string) => `${service}.${member} is not part of this fake`

const fakeOf = <S extends object>(service: string, effectful: ReadonlyArray<string>, implemented: Partial<S>): S =>
  new Proxy(implemented, {
    get: (target, key) => {
      if (key in target) return target[key as keyof typeof target]
      if (typeof key === "symbol" || key === "then") return undefined
      const message = unimplemented(service, key)
      // A method returning an Effect dies when run; any other member throws where it is read.
      if (effectful.includes(key)) return () => Effect.dieMessage(message)
      throw new Error(message)
    }
  }) as S

export const fakeChainRpc = (implemented: Partial<Context.Tag.Service<ChainRpc>>): Context.Tag.Service<ChainRpc> =>
  fakeOf("ChainRpc", ["use", "request", "requestNow"], implemented)
