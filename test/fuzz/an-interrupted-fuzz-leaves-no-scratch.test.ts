import { existsSync } from 'node:fs'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { ROOT } from '../support/cli-mock-process.js'

// fuzz runs Schemathesis in a scratch directory (src/files/scratch-directory.ts), which an interrupt removes.
// Schemathesis, still running, wrote there anew (Hypothesis keeps its example database in its working
// directory), so a Ctrl-C once left the folder behind. Here a child stands in for it, recreating a folder in
// the scratch directory every millisecond, and the process that made the directory is interrupted: the child
// is killed and its end awaited before the directory goes, so nothing is left, whichever signal it was.

const PROGRAM = `
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createScratchDirectory } from './src/files/scratch-directory.ts'
const scratch = await createScratchDirectory('users-api-kit-fuzz-')
const child = spawn(process.execPath, ['-e', \`
  const { mkdirSync, writeFileSync } = require('node:fs')
  setInterval(() => { mkdirSync(process.argv[1] + '/.hypothesis/examples', { recursive: true }); writeFileSync(process.argv[1] + '/.hypothesis/examples/x', 'x') }, 1)
\`, scratch.path], { stdio: 'ignore' })
scratch.track(child)
// Ready once the child has written: on a busy machine its start takes what it takes.
const ready = setInterval(() => {
  if (existsSync(scratch.path + '/.hypothesis/examples/x')) { clearInterval(ready); console.log('ready') }
}, 10)
setInterval(() => {}, 1000)
`

let temporary: string

beforeAll(async () => {
  temporary = await mkdtemp(join(tmpdir(), 'interrupted-fuzz-'))
})

afterAll(() => rm(temporary, { recursive: true, force: true }))

test.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)(
  '%s: the child writing into the scratch directory is stopped first, and the directory is gone',
  async (signal) => {
    const tmp = await mkdtemp(join(temporary, `${signal}-`))
    const run = execa('node', ['--import', 'tsx', '--input-type=module', '-e', PROGRAM], {
      cwd: ROOT,
      env: { TMPDIR: tmp },
      reject: false,
    })
    await new Promise<void>((resolve) => run.stdout?.on('data', () => resolve()))
    const scratch = (await readdir(tmp)).find((name) => name.startsWith('users-api-kit-fuzz-'))
    expect(existsSync(join(tmp, scratch ?? '', '.hypothesis'))).toBe(true)
    run.kill(signal)
    const result = await run
    expect(result.signal).toBe(signal)
    // Long enough for a child that outlived its parent to write again (it writes every millisecond).
    await new Promise((resolve) => setTimeout(resolve, 200))
    // tsx, which runs the program, keeps its cache there.
    expect((await readdir(tmp)).filter((name) => !name.startsWith('tsx-'))).toEqual([])
  },
)
