/**
 * The process's memory as an operator needs it to tell a leak from a heap using its room: the resident
 * set and V8's heap in use and its limit, read at each scrape, and the heap in use when node last
 * reported a full collection, which is close to what the service keeps alive (what is in use between
 * two collections includes garbage, up to the limit). A live heap that climbs scrape after scrape is a
 * leak; an RSS that climbs while the live heap holds is V8 taking room it is allowed (docs/operating.md,
 * Memory).
 */
import { Effect, Layer, Metric } from "effect"
import { constants, PerformanceObserver } from "node:perf_hooks"
import { getHeapStatistics } from "node:v8"

export const residentBytes = Metric.gauge("checkpoint_process_resident_memory_bytes", {
  description: "Resident set size of the service's process"
})
export const heapUsedBytes = Metric.gauge("checkpoint_heap_used_bytes", {
  description: "V8 heap in use, garbage not yet collected included"
})
export const heapLimitBytes = Metric.gauge("checkpoint_heap_limit_bytes", {
  description: "V8's heap size limit (--max-old-space-size and the young generation)"
})
export const heapAfterFullGcBytes = Metric.gauge("checkpoint_heap_after_full_gc_bytes", {
  description: "V8 heap in use when node last reported a full (mark-compact) collection: about the live heap"
})

/** Reads the process's memory into the gauges; run at each scrape. */
export const sampleMemory = Effect.sync(() => {
  const heap = getHeapStatistics()
  residentBytes.unsafeUpdate(process.memoryUsage.rss(), [])
  heapUsedBytes.unsafeUpdate(heap.used_heap_size, [])
  heapLimitBytes.unsafeUpdate(heap.heap_size_limit, [])
})

/**
 * Watches node's GC reports for full collections while the layer lives. Node delivers them after the
 * collection, batched, so the figure includes what was allocated in between: a little above live.
 */
export const FullGcWatch = Layer.scopedDiscard(
  Effect.acquireRelease(
    Effect.sync(() => {
      const observer = new PerformanceObserver((list) => {
        const full = list.getEntries().some((entry) =>
          (entry as { readonly detail?: { readonly kind?: number } }).detail?.kind ===
            constants.NODE_PERFORMANCE_GC_MAJOR
        )
        if (full) heapAfterFullGcBytes.unsafeUpdate(getHeapStatistics().used_heap_size, [])
      })
      observer.observe({ entryTypes: ["gc"] })
      return observer
    }),
    (observer) => Effect.sync(() => observer.disconnect())
  )
)
