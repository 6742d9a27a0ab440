/**
 * What an agent allows its client to spend on x402 payments: at most `perCall` base units of USDC for one
 * call and `perSession` for the client's life. A payment is counted when it is signed (it may be charged
 * from then on) and given back when the call is not charged (an error answer is never settled), so
 * concurrent calls can never sign more than the session allows between them.
 */
export interface BudgetLimits {
  readonly perCall: bigint
  readonly perSession: bigint
}

/** Refused before signing: the call would cost more than the budget allows. */
export class BudgetExceeded extends Error {
  constructor(
    readonly asked: bigint,
    readonly limit: "perCall" | "perSession",
    readonly left: bigint
  ) {
    super(`a call asking ${asked} USDC base units is beyond the ${limit} budget (${left} left)`)
    this.name = "BudgetExceeded"
  }
}

export const budget = (limits: BudgetLimits) => {
  let committed = 0n
  let charged = 0n
  return {
    /** Counts `amount` before the payment is signed, or throws `BudgetExceeded`. */
    take: (amount: bigint) => {
      if (amount > limits.perCall) throw new BudgetExceeded(amount, "perCall", limits.perCall)
      const left = limits.perSession - committed
      if (amount > left) throw new BudgetExceeded(amount, "perSession", left)
      committed += amount
    },
    /** The call was not charged: its amount is free again. */
    giveBack: (amount: bigint) => void (committed -= amount),
    /** The call was charged (its settlement is named in `PAYMENT-RESPONSE`). */
    charged: (amount: bigint) => void (charged += amount),
    /** What the service charged so far. */
    spent: () => charged,
    left: () => limits.perSession - committed
  }
}

export type Budget = ReturnType<typeof budget>
