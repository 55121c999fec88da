import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { execa } from 'execa'
import { SCHEMATHESIS_VERSION, schemathesisIn } from './schemathesis-places.js'

/** Pythons tried in turn for the virtual environment; `PYTHON` goes first when set. */
const PYTHONS = ['python3', 'python3.13', 'python3.12', 'python3.11', 'python3.10', 'python']

function pythonIn(virtualenv: string): string {
  return process.platform === 'win32' ? join(virtualenv, 'Scripts', 'python.exe') : join(virtualenv, 'bin', 'python')
}

/**
 * Makes sure `virtualenv` holds Schemathesis SCHEMATHESIS_VERSION, created with the first Python 3.10+
 * that can make one (a virtual environment works on Debian's and Ubuntu's externally managed Python,
 * where `pip install --user` does not). Idempotent: a stamp records the installed version.
 *
 * @returns the path of its `st`
 * @example
 * const st = await setUpSchemathesis(userVirtualenvDir(process.env))
 */
export async function setUpSchemathesis(
  virtualenv: string,
  log: (line: string) => void = console.log,
  env: Record<string, string | undefined> = process.env,
): Promise<string> {
  const st = schemathesisIn(virtualenv)
  const stamp = join(virtualenv, 'users-api-kit-schemathesis.json')
  if (existsSync(st) && (await readStamp(stamp)) === SCHEMATHESIS_VERSION) return st
  const python = pythonIn(virtualenv)
  if (!existsSync(python)) await createVirtualenv(virtualenv, log, env)
  log(`Installing schemathesis==${SCHEMATHESIS_VERSION} into ${virtualenv} …`)
  const pip = [
    '-m',
    'pip',
    'install',
    '--disable-pip-version-check',
    '--quiet',
    `schemathesis==${SCHEMATHESIS_VERSION}`,
  ]
  const installed = await execa(python, pip, { stdio: 'inherit', reject: false })
  if (installed.exitCode !== 0)
    throw new Error(`pip could not install schemathesis==${SCHEMATHESIS_VERSION} (see above).`)
  await writeFile(stamp, `${JSON.stringify({ schemathesis: SCHEMATHESIS_VERSION })}\n`)
  return st
}

async function createVirtualenv(
  virtualenv: string,
  log: (line: string) => void,
  env: Record<string, string | undefined>,
): Promise<void> {
  await mkdir(dirname(virtualenv), { recursive: true })
  const tried: string[] = []
  for (const python of [...(env['PYTHON'] ? [env['PYTHON']] : []), ...PYTHONS]) {
    const version = await execa(python, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { reject: false })
    if (version.exitCode !== 0) continue
    const [major = 0, minor = 0] = version.stdout.trim().split('.').map(Number)
    if (major !== 3 || minor < 10) {
      tried.push(`${python} is Python ${version.stdout.trim()}`)
      continue
    }
    log(`Creating the virtual environment ${virtualenv} with ${python} (Python ${version.stdout.trim()}) …`)
    const created = await execa(python, ['-m', 'venv', virtualenv], { reject: false, all: true })
    if (created.exitCode === 0) return
    tried.push(`${python} -m venv failed: ${(created.all ?? '').trim().split('\n').pop() ?? ''}`)
  }
  throw new Error(
    `No Python 3.10 or later could create a virtual environment${tried.length ? ` (${tried.join('; ')})` : ''}. ` +
      'Install one with its venv module (Debian and Ubuntu: apt-get install python3 python3-venv), or set PYTHON to one.',
  )
}

async function readStamp(path: string): Promise<string | undefined> {
  try {
    return (JSON.parse(await readFile(path, 'utf8')) as { schemathesis?: string }).schemathesis
  } catch {
    return undefined
  }
}
