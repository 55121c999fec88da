import { Readable } from 'node:stream'
import { text } from 'node:stream/consumers'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { escapeControlCharacters } from '../../src/text/escape-control-characters.js'
import { createSafeOutput } from '../../src/fuzz/safe-output.js'
import { buildCliOnce, MAIN } from '../support/cli-mock-process.js'
import { ESCAPE_SEQUENCES, startEscapeSequenceServer, targetFor } from '../support/hostile-servers.js'

// Item 10 of "Hostile inputs on both sides": what a backend sends reaches a terminal or a CI log only
// with its control characters written out, so it cannot retitle the window, clear the screen, move the
// cursor or start a line that looks like the kit's own. New lines stay only where the kit prints text
// over several lines (Schemathesis's quoting of a body), never inside one of verify's report lines.

const RUN_LIMIT_MS = 60_000

/** What a terminal acts on: C0 but new line and tab, DEL, C1 (as characters and as UTF-8 bytes). */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/

let directory: string

beforeAll(async () => {
  await buildCliOnce()
  directory = await mkdtemp(join(tmpdir(), 'server-text-escaped-'))
}, 120_000)

afterAll(async () => {
  await rm(directory, { recursive: true, force: true })
})

async function run(command: 'verify' | 'fuzz', args: string[]) {
  const server = await startEscapeSequenceServer()
  const prefix = join(directory, command)
  try {
    await writeFile(`${prefix}.target.json`, JSON.stringify(targetFor(server.url)))
    const result = await execa(
      'node',
      [MAIN, command, '--target', `${prefix}.target.json`, '--junit', `${prefix}.xml`, ...args],
      {
        reject: false,
        all: true,
        // Raw bytes: a C1 character must be seen as the bytes a terminal would get.
        encoding: 'buffer',
        env: { FORCE_COLOR: '0', NO_COLOR: '1' },
        timeout: RUN_LIMIT_MS,
      },
    )
    return {
      exitCode: result.exitCode ?? -1,
      all: Buffer.from(result.all).toString('utf8'),
      junit: await readFile(`${prefix}.xml`, 'utf8'),
    }
  } finally {
    await server.close()
  }
}

describe.concurrent('against a server whose answers carry terminal escape sequences', () => {
  test(
    'verify prints and writes them escaped, each report line of its own',
    async () => {
      const result = await run('verify', ['--timeout', '5000'])

      expect(result.exitCode, result.all.slice(-2000)).toBe(1)
      for (const [where, text] of Object.entries({ output: result.all, junit: result.junit })) {
        expect(CONTROL_CHARACTERS.exec(text), where).toBeNull()
        // The pre-check's note and the HTML finding quote the title; the problem's raw text is quoted too.
        expect(text, where).toContain('\\x1b]0;owned by the backend\\x07')
        expect(text, where).toContain('\\x9b31mred')
      }
      // The server's new lines stay inside the quoted line: its forged line never starts one.
      expect(result.all).toContain('\\x0d\\x0a✓ every check passed, exit 0\\x0d\\x0a')
      expect(result.all).not.toMatch(/^\s*✓ every check passed/m)
    },
    RUN_LIMIT_MS,
  )

  test(
    "fuzz passes Schemathesis's output on escaped, and its report and summary too",
    async () => {
      const result = await run('fuzz', ['--max-examples', '1', '--read-only', '--no-stateful', '--seed', '1'])

      expect(result.exitCode, result.all.slice(-3000)).toBe(1)
      expect(CONTROL_CHARACTERS.exec(result.all), result.all.slice(-3000)).toBeNull()
      expect(CONTROL_CHARACTERS.exec(result.junit)).toBeNull()
      expect(result.junit).not.toMatch(/&#(x0*1b|0*27|x0*9b|0*155);/i)
      // Schemathesis quotes the body it got: there, escaped.
      expect(result.all).toContain('{"title":"\\x1b]0;owned by the backend\\x07"')
      expect(result.all).toContain('"code":"\\x9b31mred"')
    },
    RUN_LIMIT_MS,
  )
})

describe('escaping', () => {
  test('writes out C0, DEL, C1, line separators and bidirectional overrides; keeps the rest', () => {
    const { retitle, clear, csi } = ESCAPE_SEQUENCES
    expect(escapeControlCharacters(`${retitle}${clear}${csi}`)).toBe(
      '\\x1b]0;owned by the backend\\x07\\x1b[2J\\x1b[H\\x9b31mred',
    )
    expect(escapeControlCharacters('a\nb\tc\r\u007f\u2028\u202e')).toBe('a\\x0ab\\x09c\\x0d\\x7f\\u2028\\u202e')
    expect(escapeControlCharacters('a\nb\tc\r', { multiline: true })).toBe('a\nb\tc\\x0d')
    expect(escapeControlCharacters('Ünïcödé ✓ 名前')).toBe('Ünïcödé ✓ 名前')
  })

  test("a child's output is escaped line by line, whatever the chunks, a UTF-8 character split between two included", async () => {
    const bytes = Buffer.from(`one \u001b[2J\ntwo ✓ \u009b\nhttp://127.0.0.1:1234/x`)
    // Split inside the three bytes of ✓ and the two of U+009B.
    const chunks = [bytes.subarray(0, 17), bytes.subarray(17, 19), bytes.subarray(19)]
    const output = Readable.from(chunks).pipe(
      createSafeOutput((line) => line.replaceAll('http://127.0.0.1:1234', 'https://api')),
    )
    expect(await text(output)).toBe('one \\x1b[2J\ntwo ✓ \\x9b\nhttps://api/x')
  })
})
