/**
 * Each safety property of the router, attacked on the devnet: forged pools and callbacks, spending
 * someone else's approval or Permit2 allowance, re-entry from a token and from a v4 hook (mid-plan, when
 * the router holds an intermediate token), a hook that turns the output into a debt, recipients that are
 * the router or a pool, and malformed funding. Every attack must fail and leave the victim's balances
 * and allowances exactly as they were.
 *
 * One file, longer than most, because every attack shares one deployment of the hostile fixtures.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  maxUint256,
  pad,
  parseAbi,
  parseUnits,
  zeroAddress
} from "viem"
import { loadArtifact } from "../../devnet/Artifacts.js"
import { DevnetVenue } from "../../devnet/router.js"
import {
  encodeExecute,
  encodeExecuteWithPermit,
  Funding,
  routerAbi,
  SHARE_ALL,
  StepFlag
} from "../../src/execution/RouterPlan.js"
import { getAmountOut } from "../../src/math/ConstantProduct.js"
import { contractAddress, freshAccount, poolByLabel, type PrivateDevnet, startDevnet } from "../support/devnet.js"
import { type Wallet, walletFor } from "../support/wallet.js"
import { deploy, deployHostile, fakePoolAbi, type Hostile, reentrantAbi, testArtifact } from "./fixtures.js"
import { signPermit } from "./permit.js"
import { v2Reserves, v3Swap, v4ExactIn } from "./poolState.js"
import { type Env, envOf, makePlan, poolStep, revertOf, sendPlan } from "./support.js"

let devnet: PrivateDevnet
let env: Env
let hostile: Hostile
let victim: Wallet
let attacker: Wallet

const permit2Abi = parseAbi([
  "function approve(address token, address spender, uint160 amount, uint48 expiration)",
  "function allowance(address user, address token, address spender) view returns (uint160 amount, uint48 expiration, uint48 nonce)"
])

beforeAll(async () => {
  devnet = await startDevnet()
  env = envOf(devnet.manifest)
  hostile = await deployHostile(env, env.trader(7))
  // The victim trusts the router with everything it can: unlimited approvals and a Permit2 allowance.
  victim = env.trader(3)
  const permit2 = contractAddress(env.manifest, "permit2")
  for (const token of [env.usdc, env.token("WETH"), hostile.evil]) {
    await victim.approve(token, env.router, maxUint256)
    await victim.approve(token, permit2, maxUint256)
    await victim.write(permit2, permit2Abi, "approve", [token, env.router, 2n ** 160n - 1n, 2 ** 47])
  }
  attacker = walletFor(env.manifest, await freshAccount(env.manifest, "100"))
}, 180_000)
afterAll(() => devnet?.stop())

const usdc = (amount: string) => parseUnits(amount, 6)

/** Everything of the victim's an attacker could hope to move: balances and allowances. */
const victimState = async () => {
  const permit2 = contractAddress(env.manifest, "permit2")
  const tokens = [env.usdc, env.token("WETH"), hostile.evil]
  return Promise.all(tokens.flatMap((token) => [
    victim.balanceOf(token),
    victim.public.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "allowance",
      args: [victim.address, env.router]
    }),
    victim.public.readContract({
      address: permit2,
      abi: permit2Abi,
      functionName: "allowance",
      args: [victim.address, token, env.router]
    })
      .then(([amount]) => amount)
  ]))
}

const expectVictimUntouched = async (attack: () => Promise<unknown>) => {
  const before = await victimState()
  await attack()
  expect(await victimState()).toEqual(before)
}

const directUsdcToWeth = (amountIn: bigint, recipient: Address, extra: Partial<Parameters<typeof makePlan>[0]> = {}) =>
  makePlan({
    sellToken: env.usdc,
    buyToken: env.token("WETH"),
    recipient,
    amountIn,
    steps: [poolStep(env.manifest, "v2:WETH/USDC", env.usdc, amountIn)],
    ...extra
  })

describe("only pools that verify against their factory or manager", () => {
  it("refuses a v3 'pool' that is not the factory's CREATE2 address, and never calls it", async () => {
    const step = { ...poolStep(env.manifest, "v3:WETH/USDC:500", env.usdc, usdc("100")), pool: hostile.fakePool }
    const plan = directUsdcToWeth(usdc("100"), victim.address, { steps: [step] })
    expect(await revertOf(victim, env.router, plan)).toBe("ForgedPool")
  })

  it("refuses a v2 pair of other tokens, a v4 step not through the PoolManager and a curve step not on the launchpad", async () => {
    const amount = usdc("100")
    const wrongPair = {
      ...poolStep(env.manifest, "v2:WETH/USDC", env.usdc, amount),
      pool: poolByLabel(env.manifest, "v2:WBTC/USDC").address as Address
    }
    const wrongManager = { ...poolStep(env.manifest, "v4:WETH/USDC:500", env.usdc, amount), pool: hostile.fakePool }
    const wrongLaunchpad = {
      ...poolStep(env.manifest, "v2:WETH/USDC", env.usdc, amount),
      venue: DevnetVenue.curve,
      pool: hostile.fakePool
    }
    for (const step of [wrongPair, wrongManager, wrongLaunchpad]) {
      expect(await revertOf(victim, env.router, directUsdcToWeth(amount, victim.address, { steps: [step] }))).toBe(
        "ForgedPool"
      )
    }
  })

  it("a v4 key that names no initialized pool fails inside the PoolManager", async () => {
    const step = { ...poolStep(env.manifest, "v4:WETH/USDC:500", env.usdc, usdc("100")), fee: 1234 }
    const plan = directUsdcToWeth(usdc("100"), victim.address, { steps: [step] })
    expect(await revertOf(victim, env.router, plan)).not.toBe("succeeded")
  })
})

describe("forged callbacks", () => {
  it("a contract posing as a pool cannot get paid through the v3 or v4 callback, outside or inside a plan", async () => {
    const forgedData = pad(env.usdc)
    await expectVictimUntouched(async () => {
      await expect(attacker.write(hostile.fakePool, fakePoolAbi, "strike", [env.router])).rejects.toThrow()
      await expect(attacker.write(hostile.fakePool, fakePoolAbi, "strikeUnlock", [env.router, forgedData])).rejects
        .toThrow()
      const direct = parseAbi([
        "function uniswapV3SwapCallback(int256, int256, bytes)",
        "function unlockCallback(bytes) returns (bytes)"
      ])
      await expect(attacker.write(env.router, direct, "uniswapV3SwapCallback", [usdc("5"), usdc("5"), forgedData]))
        .rejects.toThrow()
      await expect(attacker.write(env.router, direct, "unlockCallback", [forgedData])).rejects.toThrow()
    })
  })
})

describe("never moves anyone's tokens but the caller's", () => {
  it("the victim's ERC-20 approval to the router cannot fund an attacker's plan", async () => {
    await expectVictimUntouched(async () => {
      const plan = directUsdcToWeth(usdc("1000"), attacker.address)
      expect(await revertOf(attacker, env.router, plan)).toBe("TokenCallFailed")
      await expect(sendPlan(attacker, env.router, plan)).rejects.toThrow()
    })
  })

  it("the victim's Permit2 allowance cannot fund it, nor can its signed permit be replayed by another sender", async () => {
    await expectVictimUntouched(async () => {
      const plan = directUsdcToWeth(usdc("1000"), attacker.address, { funding: Funding.permit2 })
      expect(await revertOf(attacker, env.router, plan)).not.toBe("succeeded")
      const { permit, signature } = await signPermit(victim, env.manifest, {
        token: env.usdc,
        amount: usdc("1000"),
        nonce: 5
      }, env.router)
      const data = encodeExecuteWithPermit(plan, permit, signature)
      expect(await revertOf(attacker, env.router, plan, { data })).not.toBe("succeeded")
      await expect(sendPlan(attacker, env.router, plan, { data })).rejects.toThrow()
    })
  })

  it("steps may take only the sell token from the taker, and deliver only the buy token to the recipient", async () => {
    const taker = env.trader(4)
    const amount = usdc("100")
    // The plan's bytes have no field for either: a taker-paid step's input is the sell token and a step
    // paying the recipient makes the buy token, by rule, so the encoder cannot write such a plan.
    const wethIn = poolStep(env.manifest, "v2:WETH/USDC", env.token("WETH"), amount)
    expect(() => encodeExecute(directUsdcToWeth(amount, taker.address, { steps: [wethIn] })))
      .toThrow("a taker-paid step spends the sell token")
    const toOther = poolStep(env.manifest, "v2:WBTC/USDC", env.usdc, amount)
    expect(() => encodeExecute(directUsdcToWeth(amount, taker.address, { steps: [toOther] })))
      .toThrow("a step paying the recipient makes the buy token")
    // The pair of another token named for the sell token's step is a pool of other tokens: forged.
    const otherPair = { ...poolStep(env.manifest, "v2:WETH/USDC", env.usdc, amount), pool: toOther.pool }
    expect(await revertOf(taker, env.router, directUsdcToWeth(amount, taker.address, { steps: [otherPair] })))
      .toBe("ForgedPool")
    const greedyShare = {
      ...poolStep(env.manifest, "v2:WETH/USDC", env.usdc, SHARE_ALL + 1n),
      flags: StepFlag.fromRouter
    }
    expect(await revertOf(taker, env.router, directUsdcToWeth(amount, taker.address, { steps: [greedyShare] })))
      .toBe("ShareTooLarge")
  })
})

describe("recipients", () => {
  it("refuses the router, the PoolManager, the launchpad and any pool of the plan as recipient", async () => {
    const amount = usdc("100")
    const cases: ReadonlyArray<readonly [Address, string]> = [
      [env.router, "InvalidRecipient"],
      [contractAddress(env.manifest, "v4PoolManager"), "InvalidRecipient"],
      [contractAddress(env.manifest, "launchpad"), "InvalidRecipient"],
      [poolByLabel(env.manifest, "v2:WETH/USDC").address as Address, "RecipientIsPool"]
    ]
    for (const [recipient, error] of cases) {
      expect(await revertOf(victim, env.router, directUsdcToWeth(amount, recipient)), recipient).toBe(error)
    }
    const v3 = poolStep(env.manifest, "v3:WETH/USDC:500", env.usdc, amount)
    expect(await revertOf(victim, env.router, directUsdcToWeth(amount, v3.pool, { steps: [v3] }))).toBe(
      "RecipientIsPool"
    )
  })

  it("accepts a recipient that only shares its last address byte with the PoolManager or the launchpad", async () => {
    // The router skips its venue-table scan for recipients whose low byte no registry has; these take the
    // scan, which must compare whole addresses.
    const amount = usdc("100")
    for (const role of ["v4PoolManager", "launchpad"]) {
      const registry = contractAddress(env.manifest, role)
      const lookalike = getAddress(`0x${registry.slice(2, 4) === "ee" ? "dd" : "ee"}${registry.slice(4)}`)
      expect(await revertOf(victim, env.router, directUsdcToWeth(amount, lookalike)), role).toBe("succeeded")
    }
  })
})

describe("funding rules", () => {
  it("native value only for native-funded USDC sells, and exactly the amount", async () => {
    const taker = env.trader(4)
    const amount = usdc("100")
    const plain = directUsdcToWeth(amount, taker.address)
    expect(await revertOf(taker, env.router, plain, { value: 10n ** 12n })).toBe("UnexpectedValue")
    const native = { ...plain, funding: Funding.native }
    expect(await revertOf(taker, env.router, native, { value: amount * 10n ** 12n - 1n })).toBe("UnexpectedValue")
    const wethNative = makePlan({
      sellToken: env.token("WETH"),
      buyToken: env.usdc,
      recipient: taker.address,
      amountIn: 10n ** 15n,
      funding: Funding.native,
      steps: [poolStep(env.manifest, "v2:WETH/USDC", env.token("WETH"), 10n ** 15n)]
    })
    expect(await revertOf(taker, env.router, wethNative, { value: 10n ** 12n })).toBe("NativeFundingUnavailable")
  })
})

describe("re-entry cannot double-spend or skip a check", () => {
  it("a token re-entering execute mid-plan cannot take the intermediate the router holds", async () => {
    const [USDC, WETH, EVIL] = [env.usdc, env.token("WETH"), hostile.evil]
    const amountIn = usdc("500")
    // While the router holds EVIL between the hops, try to sell all of it to the attacker.
    const theft = makePlan({
      sellToken: EVIL,
      buyToken: WETH,
      recipient: attacker.address,
      amountIn: 0n,
      exactOut: true,
      steps: [{
        ...poolStep(env.manifest, "v2:WETH/USDC", EVIL, SHARE_ALL),
        pool: hostile.evilWethPair,
        tokenOut: WETH,
        flags: StepFlag.fromRouter
      }]
    })
    await attacker.write(EVIL, reentrantAbi, "arm", [env.router, encodeExecute(theft)])
    const { reserveIn, reserveOut } = await v2Reserves(victim, hostile.evilUsdcPair, USDC)
    const middle = getAmountOut(amountIn, reserveIn, reserveOut)
    const second = await v2Reserves(victim, hostile.evilWethPair, EVIL)
    const expected = getAmountOut(middle, second.reserveIn, second.reserveOut)
    const attemptsBefore = await victim.public.readContract({
      address: EVIL,
      abi: reentrantAbi,
      functionName: "attempts"
    })
    const plan = makePlan({
      sellToken: USDC,
      buyToken: WETH,
      recipient: victim.address,
      amountIn,
      steps: [
        {
          ...poolStep(env.manifest, "v2:WETH/USDC", USDC, amountIn),
          pool: hostile.evilUsdcPair,
          tokenOut: EVIL,
          flags: StepFlag.toRouter
        },
        {
          ...poolStep(env.manifest, "v2:WETH/USDC", EVIL, SHARE_ALL),
          pool: hostile.evilWethPair,
          tokenOut: WETH,
          flags: StepFlag.fromRouter
        }
      ]
    })
    expect((await sendPlan(victim, env.router, plan)).event.amountOut).toBe(expected)
    const read = (functionName: "attempts" | "successes") =>
      victim.public.readContract({ address: EVIL, abi: reentrantAbi, functionName })
    expect(await read("attempts")).toBeGreaterThan(attemptsBefore)
    expect(await read("successes")).toBe(0n)
    expect(await victim.balanceOf(EVIL, attacker.address)).toBe(0n)
    expect(await victim.balanceOf(EVIL, env.router)).toBe(0n)
  })

  it("a token forging the v3 callback while its real pool is mid-swap cannot get the plan's slack paid to it", async () => {
    const [USDC, EVIL] = [env.usdc, hostile.evil]
    // Exact output with a generous maximum: a forged payment inside that slack would pass every cap.
    const wanted = parseUnits("200", 18)
    const zeroForOne = USDC.toLowerCase() < EVIL.toLowerCase()
    const model = await v3Swap(victim, hostile.evilUsdcV3, zeroForOne, -wanted)
    const slack = usdc("1000")
    const forged = encodeFunctionData({
      abi: parseAbi(["function uniswapV3SwapCallback(int256, int256, bytes)"]),
      functionName: "uniswapV3SwapCallback",
      args: [slack / 2n, slack / 2n, pad(USDC)]
    })
    await attacker.write(EVIL, reentrantAbi, "arm", [env.router, forged])
    const plan = makePlan({
      sellToken: USDC,
      buyToken: EVIL,
      recipient: victim.address,
      amountIn: model.amountIn + slack,
      exactOut: true,
      minAmountOut: wanted,
      steps: [{
        ...poolStep(env.manifest, "v3:WETH/USDC:3000", USDC, wanted),
        pool: hostile.evilUsdcV3,
        tokenOut: EVIL,
        flags: StepFlag.exactOut,
        limit: model.amountIn + slack
      }]
    })
    const read = (functionName: "attempts" | "successes") =>
      victim.public.readContract({ address: EVIL, abi: reentrantAbi, functionName })
    const [attemptsBefore, successesBefore] = [await read("attempts"), await read("successes")]
    const [paid, got, stolen] = await victim.changes(
      [[USDC, victim.address], [EVIL, victim.address], [USDC, EVIL]],
      () => sendPlan(victim, env.router, plan)
    )
    expect(paid).toBe(-model.amountIn)
    expect(got).toBe(wanted)
    expect(stolen).toBe(0n)
    expect(await read("attempts")).toBeGreaterThan(attemptsBefore)
    expect(await read("successes")).toBe(successesBefore)
    await attacker.write(EVIL, reentrantAbi, "arm", [zeroAddress, "0x"])
  })

  it("a v4 hook re-entering the router or forging its callbacks gets nowhere, and the swap settles exactly", async () => {
    const [USDC, WETH] = [env.usdc, env.token("WETH")]
    const { key, id } = hostile.reentrantPool
    const amountIn = usdc("300")
    const theft = directUsdcToWeth(amountIn, attacker.address)
    const stateView = contractAddress(env.manifest, "v4StateView")
    const attacks = [
      encodeExecute(theft),
      encodeFunctionData({
        abi: parseAbi(["function unlockCallback(bytes) returns (bytes)"]),
        functionName: "unlockCallback",
        args: ["0x"]
      }),
      encodeFunctionData({
        abi: parseAbi(["function uniswapV3SwapCallback(int256, int256, bytes)"]),
        functionName: "uniswapV3SwapCallback",
        args: [amountIn, amountIn, pad(USDC)]
      })
    ]
    for (const attack of attacks) {
      await attacker.write(hostile.reentrantHook, reentrantAbi, "arm", [env.router, attack])
      const model = await v4ExactIn(
        victim,
        stateView,
        id,
        key.tickSpacing,
        getAddress(key.currency0) === getAddress(USDC),
        amountIn
      )
      const plan = makePlan({
        sellToken: USDC,
        buyToken: WETH,
        recipient: victim.address,
        amountIn,
        steps: [{
          venue: DevnetVenue.v4,
          flags: 0,
          pool: contractAddress(env.manifest, "v4PoolManager"),
          tokenIn: USDC,
          tokenOut: WETH,
          fee: key.fee,
          tickSpacing: key.tickSpacing,
          hooks: key.hooks,
          amount: amountIn,
          limit: 0n
        }]
      })
      const [paid, got] = await victim.changes(
        [[USDC, victim.address], [WETH, victim.address]],
        () => sendPlan(victim, env.router, plan)
      )
      expect(paid).toBe(-amountIn)
      expect(got).toBe(model.amountOut)
    }
    const read = (functionName: "attempts" | "successes") =>
      victim.public.readContract({ address: hostile.reentrantHook, abi: reentrantAbi, functionName })
    expect(await read("attempts")).toBe(6n)
    expect(await read("successes")).toBe(0n)
  })

  it("a v4 hook whose return delta turns the output into a debt is refused", async () => {
    const { key } = hostile.greedyPool
    const amountIn = usdc("100")
    const plan = makePlan({
      sellToken: env.usdc,
      buyToken: env.token("WETH"),
      recipient: victim.address,
      amountIn,
      steps: [{
        venue: DevnetVenue.v4,
        flags: 0,
        pool: contractAddress(env.manifest, "v4PoolManager"),
        tokenIn: env.usdc,
        tokenOut: env.token("WETH"),
        fee: key.fee,
        tickSpacing: key.tickSpacing,
        hooks: key.hooks,
        amount: amountIn,
        limit: 0n
      }]
    })
    expect(await revertOf(victim, env.router, plan)).toBe("BadDelta")
  })
})

// Keeps the ABI import honest: the plan type carries no `from` or call-target field a caller could set.
describe("PlanExecuted's amounts", () => {
  it("a fill whose output rise exceeds 128 bits is refused, not cut to fit the event's word", async () => {
    const USDC = env.usdc
    const lp = env.trader(7)
    // A token that, on the pair paying the recipient, also pays it 2^129 from the token's own balance:
    // the recipient's balance rises by more than the event's 128-bit half can carry.
    const big = await deploy(lp, testArtifact("ReentrantToken"), ["Big", "BIG", 1n << 200n])
    const factory = contractAddress(env.manifest, "v2Factory")
    const factoryAbi = loadArtifact("UniswapV2Factory").abi
    await lp.write(factory, factoryAbi, "createPair", [big, USDC])
    const pair = getAddress(
      (await lp.public.readContract({
        address: factory,
        abi: factoryAbi,
        functionName: "getPair",
        args: [big, USDC]
      })) as Address
    )
    await lp.transfer(big, pair, parseUnits("20000", 18))
    await lp.transfer(USDC, pair, usdc("20000"))
    await lp.write(pair, loadArtifact("UniswapV2Pair").abi, "mint", [lp.address])
    await lp.transfer(big, big, 1n << 129n)
    const amountIn = usdc("10")
    const plan = makePlan({
      sellToken: USDC,
      buyToken: big,
      recipient: victim.address,
      amountIn,
      steps: [{ ...poolStep(env.manifest, "v2:WETH/USDC", USDC, amountIn), pool: pair, tokenOut: big }]
    })
    // Unarmed, the same plan fills: the refusal below is the amount's, nothing else.
    expect(await revertOf(victim, env.router, plan)).toBe("succeeded")
    const bonus = encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [victim.address, 1n << 129n] })
    await lp.write(big, reentrantAbi, "arm", [big, bonus])
    expect(await revertOf(victim, env.router, plan)).toBe("AmountTooLarge")
  })
})

describe("the plan's shape", () => {
  it("has no field naming whose funds to take or what to call", () => {
    const execute = routerAbi.find((item) => item.type === "function" && item.name === "execute")!
    const names = JSON.stringify(execute)
    for (const forbidden of ["\"from\"", "\"payer\"", "\"target\"", "\"calldata\"", "\"data\""]) {
      expect(names).not.toContain(forbidden)
    }
  })
})
