import { mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { execa } from 'execa'
import { describe, expect, test } from 'vitest'
import { removeLeftoverTemporaryFiles, writeFileAtomically } from '../../src/files/write-file-atomically.js'
import { ROOT } from '../support/cli-mock-process.js'

// The write behind --state-file: a reader, or a process killed at any moment, sees a whole file.

/** A process that rewrites `path` with ever newer 4 MB versions until it is killed. */
function startWriter(path: string) {
  // The source, through tsx: a stale dist/ must not be what is tested.
  const module = pathToFileURL(join(ROOT, 'src/files/write-file-atomically.ts')).href
  const script = `
    import { writeFileAtomically } from ${JSON.stringify(module)}
    const pad = 'x'.repeat(4 * 1024 * 1024)
    for (let version = 1; ; version++) {
      await writeFileAtomically(${JSON.stringify(path)}, JSON.stringify({ version, pad }))
      if (version === 1) console.log('first write done')
    }`
  return execa('node', ['--import', 'tsx', '--input-type=module', '-e', script], { reject: false, cwd: ROOT })
}

describe('writeFileAtomically', () => {
  test('replaces the file and leaves nothing else beside it', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'atomic-'))
    const path = join(directory, 'state.json')
    await writeFileAtomically(path, 'one')
    await writeFileAtomically(path, 'two')
    expect(await readFile(path, 'utf8')).toBe('two')
    expect(await readdir(directory)).toEqual(['state.json'])
  })

  test('a failed write keeps the old file and removes its temporary file', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'atomic-'))
    await writeFileAtomically(join(directory, 'state.json'), 'old')
    // A rename over a directory fails after the temporary file beside it was written.
    const occupied = join(directory, 'occupied')
    await mkdir(occupied)
    await expect(writeFileAtomically(occupied, 'new')).rejects.toThrow()
    expect(await readFile(join(directory, 'state.json'), 'utf8')).toBe('old')
    expect((await readdir(directory)).sort()).toEqual(['occupied', 'state.json'])
  })

  test('links planted where a temporary file could be named receive nothing (names are random, opened exclusively)', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'atomic-link-'))
    const victim = join(directory, 'victim.txt')
    await writeFile(victim, 'untouched')
    // The names an attacker could guess before: pid and a counter.
    for (let sequence = 1; sequence <= 20; sequence++) {
      await symlink(victim, join(directory, `.state.json.${process.pid}.${sequence}.tmp`))
    }
    for (let write = 0; write < 20; write++) await writeFileAtomically(join(directory, 'state.json'), `secret ${write}`)
    expect(await readFile(victim, 'utf8')).toBe('untouched')
    expect(await readFile(join(directory, 'state.json'), 'utf8')).toBe('secret 19')
  })

  test('SIGKILL at random moments of a stream of writes: the file is always one whole version', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'atomic-kill-'))
    const path = join(directory, 'state.json')
    let lastVersion = 0
    let killedMidWrite = 0
    const rounds = 15
    for (let round = 0; round < rounds; round++) {
      const writer = startWriter(path)
      await new Promise<void>((resolve) => {
        writer.stdout.on('data', () => resolve())
        void writer.then(() => resolve())
      })
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 150))
      writer.kill('SIGKILL')
      expect((await writer).signal).toBe('SIGKILL')
      const leftovers = (await readdir(directory)).filter((name) => name.endsWith('.tmp'))
      if (leftovers.length > 0) killedMidWrite++
      const { version, pad } = JSON.parse(await readFile(path, 'utf8')) as { version: number; pad: string }
      expect(pad.length).toBe(4 * 1024 * 1024)
      expect(version).toBeGreaterThanOrEqual(1)
      lastVersion = version
      await removeLeftoverTemporaryFiles(path)
    }
    console.info(`atomic write kill test: ${killedMidWrite} of ${rounds} kills landed mid-write`)
    expect(lastVersion).toBeGreaterThan(0)
    // Most of the writer's time is spent writing: if no kill ever landed mid-write, this test proved nothing.
    expect(killedMidWrite).toBeGreaterThan(0)
    expect(await readdir(directory)).toEqual(['state.json'])
  }, 60_000)
})
