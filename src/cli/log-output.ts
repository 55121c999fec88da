import { fstatSync } from 'node:fs'
import type { LogOutput } from '../server/request-log.js'

/**
 * What the standard output is: a terminal, a file (or a character device such as /dev/null), else a pipe
 * or a socket. The request log is written to each its own way (server/request-log.ts).
 */
export function logOutput(): LogOutput {
  if (process.stdout.isTTY === true) return 'terminal'
  try {
    const stats = fstatSync(1)
    return stats.isFile() || stats.isCharacterDevice() ? 'file' : 'pipe'
  } catch {
    return 'pipe'
  }
}
