/**
 * The split optimiser's line search: the best integer point of a concave function on [0, high], by
 * golden-section, to a given resolution. A point where the function is undefined (an allocation that
 * cannot fill) counts as worse than any defined one.
 */
export const lineMaximum = (
  phi: (t: bigint) => bigint | null,
  high: bigint,
  resolution: bigint
): { readonly t: bigint; readonly value: bigint | null } => {
  let best = { t: high, value: phi(high) }
  const consider = (t: bigint) => {
    const value = phi(t)
    if (value !== null && (best.value === null || value > best.value)) best = { t, value }
    return value
  }
  let low = 0n
  let up = high
  const cut = (a: bigint, b: bigint) => a + ((b - a) * 382n) / 1000n
  let left = cut(low, up)
  let right = up - (left - low)
  let leftValue = consider(left)
  let rightValue = consider(right)
  while (up - low > resolution && right > left) {
    if (rightValue !== null && (leftValue === null || rightValue >= leftValue)) {
      low = left
      left = right
      leftValue = rightValue
      right = up - (left - low)
      rightValue = right > left ? consider(right) : rightValue
    } else {
      up = right
      right = left
      rightValue = leftValue
      left = low + (up - right)
      leftValue = left < right ? consider(left) : leftValue
    }
  }
  return best
}
