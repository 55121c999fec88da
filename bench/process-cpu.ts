import { readFile } from 'node:fs/promises'

/** Linux's USER_HZ: /proc counts CPU time in 1/100 s everywhere Node runs in practice. */
const TICKS_PER_SECOND = 100

/** CPU time (user + system) a process has used so far, in ms, from /proc/PID/stat; undefined off Linux. */
export async function readProcessCpuMs(pid: number): Promise<number | undefined> {
  try {
    return cpuMsOfStat(await readFile(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return undefined
  }
}

/** User + system CPU time, in ms, of a /proc/PID/stat line (its threads' included). */
export function cpuMsOfStat(stat: string): number {
  // Fields after the command name, which may hold spaces: state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND
}
