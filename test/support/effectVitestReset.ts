/**
 * Vitest setup file, run before each test file. Test files share a worker's module cache
 * (`isolate: false`, vitest.config.ts), and @effect/vitest's `layer()` assigns its own testers onto
 * vitest's one `it` object: the next file's `it.effect` would run in the previous file's runtime,
 * without the TestClock. Each file starts from @effect/vitest's own testers again.
 */
import { it, makeMethods } from "@effect/vitest"

// `it` is vitest's own object with @effect/vitest's methods on it: the one `layer()` writes to.
makeMethods(it)
