/**
 * The scale benchmark's latency figures (`phase.ts` `latencies`) against a running devnet
 * (`keptDevnet.ts`; its manifest path as the argument), printed as one JSON line: run it from two
 * builds, alternated, against the same devnet to compare them without rebuilding 20,000 pools.
 * Needs `node --expose-gc` for the heap figure.
 */
import { readFileSync } from "node:fs"
import { latencies } from "./phase.js"

const QUERIES = ["WETH", "USDC", "B4242", "Bench Token 77", "Bench", "0x", "EURC", "nothing"]

const figures = await latencies(JSON.parse(readFileSync(process.argv[2]!, "utf8")), QUERIES)
console.log(JSON.stringify(figures))
