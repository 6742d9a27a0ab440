/**
 * A service that starts while settlements of an earlier run are still in the node's pool (it was
 * stopped, or died, with them unconfirmed) cannot see them in the payer's balance at the head, and an
 * in-process book does not remember them: a payer whose balance covers those could be admitted again on
 * the same money. So until the settlement key's transactions pending at start have been mined, no call
 * is served before its own settlement is mined (it settles as in `confirmed`: a failure is refused, not
 * served). At Arc's pace that is a block or so after a restart; then every balance read includes them.
 */
export const inheritedSettlements = (
  count: (blockTag: "latest" | "pending") => Promise<number>,
  // Read as the service starts, before it sends anything, so it counts only what an earlier run left;
  // unknown when the node did not answer then (read at the first admission, still before any send).
  pendingAtStart: number | undefined
) => {
  let atStart: Promise<number> | undefined = pendingAtStart === undefined ? undefined : Promise.resolve(pendingAtStart)
  let landed = false
  /** True once everything pending at start is mined (then always, without asking the node again). */
  return async (): Promise<boolean> => {
    if (landed) return true
    if (atStart === undefined) {
      atStart = count("pending")
      atStart.catch(() => (atStart = undefined))
    }
    const [goal, mined] = await Promise.all([atStart, count("latest")])
    landed = mined >= goal
    return landed
  }
}
