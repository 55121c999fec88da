import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { availableParallelism, cpus, loadavg, release } from 'node:os'
import type { Machine } from './report.js'
import { ROOT } from './server-process.js'

export function describeMachine(): Machine {
  return {
    date: run('date', ['-u', '+%F']) ?? new Date().toISOString().slice(0, 10),
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    node: process.version,
    os: `${process.platform} ${release()}`,
    code: describeCode(),
  }
}

/** The 1-minute load average and, where the kernel has it, the share of time runnable tasks waited for a CPU. */
export function describeContention(): string {
  const load = `load average ${loadavg()[0]!.toFixed(1)}`
  try {
    const avg60 = /^some .*avg60=([\d.]+)/m.exec(readFileSync('/proc/pressure/cpu', 'utf8'))?.[1]
    return avg60 === undefined ? load : `${load}, CPU pressure ${Number(avg60).toFixed(0)} % (PSI "some", last 60 s)`
  } catch {
    return load
  }
}

function describeCode(): string {
  const commit = run('git', ['rev-parse', '--short', 'HEAD'])
  if (commit === undefined) return 'unknown'
  const dirty = (run('git', ['status', '--porcelain']) ?? '') !== ''
  return dirty ? `commit ${commit} + uncommitted changes` : `commit ${commit}`
}

function run(command: string, args: string[]): string | undefined {
  try {
    return execFileSync(command, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return undefined
  }
}
