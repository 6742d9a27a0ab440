/**
 * The classification ruleset, versioned: answers carry `rulesVersion` so a caller can tell when the
 * meaning of a flag, a state or the ranking changed. Bump it with any change to these files' rules.
 *
 * - verified: listed for this chain on the configured token list; nothing on chain verifies a token.
 * - impersonates_canonical: not verified, and its symbol or its name equals (after Unicode NFKC, case
 *   folding and dropping invisible characters) the symbol or name of a verified token.
 * - shared_ticker: not verified, its symbol is shared with at least one other known token, and no token
 *   with that symbol is verified (with a verified one, the others are impersonators instead).
 * - hooked_pool: at least one of its pools is a v4 pool with a hooks contract.
 * - buy_tax, sell_tax: only from a safety simulation (the background scan, or a quote), never inferred
 *   here: set when the verdict shown as `safety` measured a tax above 0 bp on that side (src/safety/SearchVerdict.ts).
 * - state: `bonding_curve` launched on a launchpad and not graduated; `graduated` launched and moved to a
 *   pool; `pool_only` in pools without a launchpad; `no_pool` known but in no pool.
 * - evidence.firstWithTicker: created (first transfer seen, else first sighting) before every other
 *   indexed token with the same symbol. evidence.creatorLinked: its creator (launch creator, else the
 *   sender of its first mint) also created a verified token.
 * - prices: USDC is $1; any other token takes the mid price of its deepest pool against USDC or a
 *   verified token (deepest: most USD to move that pool 2%); unverified tokens never price others.
 * - depth: the input that moves a pool's price 2%, the shallower direction, summed over pools, in USD;
 *   `lower_bound` when a pool's swaps are not exactly known (dynamic fee, delta-returning hooks), a
 *   pool has no priced side, or the token is still on a bonding curve.
 * - ranking: impersonators last; then address, exact symbol, exact name, prefix matches; then
 *   verified before unverified (by trust); then deeper, then more liquid, then older.
 * - resolution: `verified` when the first result is the only verified match; `address` for the address
 *   of an unverified token; `unverified` for a single best match (exact ticker, else exact name, else
 *   prefix); `ambiguous` otherwise.
 */
export const RULES_VERSION = "rules-2026.11.2"
