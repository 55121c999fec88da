import { execa, type ResultPromise } from 'execa'

// Long-running commands (a mock behind npx, a shell script) are started in a process group of their
// own: npx starts a shell, which starts node, and killing npx alone left those two running after
// npm test ended. A group is stopped whole, and a test can check that none of its processes is left.

export interface GroupLeader {
  /** The leader's pid, which is also the group's id. */
  pid: number
  process: ResultPromise
  /** Everything printed so far, stdout and stderr interleaved. */
  output(): string
}

const started: number[] = []

/**
 * Starts a command as the leader of a new process group (`detached`), its output collected.
 *
 * @example
 * const mock = startGroup('npx', ['users-api-kit', 'mock', '--port', '0'], { cwd: project })
 * await stopGroup(mock.pid)
 */
export function startGroup(
  file: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string | undefined> },
): GroupLeader {
  const child = execa(file, args, { ...options, detached: true, reject: false, all: true })
  if (child.pid === undefined) throw new Error(`${file} did not start`)
  let output = ''
  child.all?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  started.push(child.pid)
  return { pid: child.pid, process: child, output: () => output }
}

/** Whether any process of the group is still there. */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** SIGTERM to every process of the group, SIGKILL to what is left after 5 s; resolves once none is left. */
export async function stopGroup(pid: number): Promise<void> {
  signalGroup(pid, 'SIGTERM')
  if (await groupGoneWithin(pid, 5_000)) return
  signalGroup(pid, 'SIGKILL')
  if (!(await groupGoneWithin(pid, 5_000))) throw new Error(`the process group ${pid} outlived SIGKILL`)
}

/** Stops every group this worker started; resolves to those that were still running when asked. */
export async function stopEveryGroup(): Promise<number[]> {
  const running = started.splice(0).filter(groupAlive)
  await Promise.all(running.map(stopGroup))
  return running
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error
  }
}

async function groupGoneWithin(pid: number, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    if (!groupAlive(pid)) return true
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return !groupAlive(pid)
}
