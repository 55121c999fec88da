// `npm run setup:fuzz`: the kit's own virtualenv (.venv/, ignored by git) with the pinned Schemathesis.
// Idempotent and fast once done: a stamp file records the installed version. `npm test` runs it too
// (test/support/set-up-schemathesis.ts), once per run.
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { execa } from 'execa'
import { SCHEMATHESIS_VERSION, VIRTUALENV_DIR } from '../src/fuzz/find-schemathesis.js'
import { PACKAGE_ROOT } from '../src/fuzz/fuzz-files.js'

/** Makes sure `<root>/.venv` holds Schemathesis SCHEMATHESIS_VERSION; resolves to its `st`. */
export async function setUpSchemathesis(root: string = PACKAGE_ROOT): Promise<string> {
  const virtualenv = join(root, VIRTUALENV_DIR)
  const bin = join(virtualenv, process.platform === 'win32' ? 'Scripts' : 'bin')
  const st = join(bin, process.platform === 'win32' ? 'st.exe' : 'st')
  const stamp = join(virtualenv, 'users-api-kit-schemathesis.json')
  if (existsSync(st) && (await readStamp(stamp)) === SCHEMATHESIS_VERSION) return st

  const python = join(bin, process.platform === 'win32' ? 'python.exe' : 'python')
  if (!existsSync(python)) {
    const system = process.env.PYTHON ?? (process.platform === 'win32' ? 'python' : 'python3')
    console.log(`Creating the virtualenv ${virtualenv} with ${system} …`)
    const created = await execa(system, ['-m', 'venv', virtualenv], { stdio: 'inherit', reject: false })
    if (created.exitCode !== 0) {
      throw new Error(
        `Could not create a virtualenv with "${system} -m venv" (Schemathesis needs Python 3.11 or later, with venv; ` +
          'on Debian and Ubuntu: apt-get install python3-venv). Set PYTHON to use another interpreter.',
      )
    }
  }
  console.log(`Installing schemathesis==${SCHEMATHESIS_VERSION} into ${virtualenv} …`)
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

async function readStamp(path: string): Promise<string | undefined> {
  try {
    return (JSON.parse(await readFile(path, 'utf8')) as { schemathesis?: string }).schemathesis
  } catch {
    return undefined
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const st = await setUpSchemathesis()
    console.log(`Schemathesis ${SCHEMATHESIS_VERSION} is ready: ${st}`)
  } catch (error) {
    console.error(`setup:fuzz: ${error instanceof Error ? error.message : String(error)}`)
    process.exitCode = 1
  }
}
