import { performance } from 'node:perf_hooks'
import { readMemory } from './server-process.js'

export interface MemorySample {
  /** Seconds since the trace started. */
  atSeconds: number
  rssMiB: number
}

export interface MemoryTrace {
  samples: MemorySample[]
  /** Takes one more sample now (e.g. at a moment that matters) and returns it. */
  sampleNow(): Promise<MemorySample | undefined>
  stop(): void
}

/** The RSS of a process (VmRSS from /proc/PID/status), sampled every `everyMs`. */
export function traceMemory(pid: number, everyMs = 500): MemoryTrace {
  const started = performance.now()
  const samples: MemorySample[] = []
  const sampleNow = async (): Promise<MemorySample | undefined> => {
    const memory = await readMemory(pid)
    if (memory === undefined || Number.isNaN(memory.rssMiB)) return undefined
    const sample = { atSeconds: (performance.now() - started) / 1000, rssMiB: memory.rssMiB }
    samples.push(sample)
    return sample
  }
  const timer = setInterval(() => void sampleNow(), everyMs)
  return { samples, sampleNow, stop: () => clearInterval(timer) }
}
