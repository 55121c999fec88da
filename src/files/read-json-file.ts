import { readFile } from 'node:fs/promises'
import { AppError } from '../errors.js'

/**
 * Reads and parses a JSON file that a person wrote. A missing file or bad JSON is an AppError whose
 * message names the file and, for bad JSON, the line and column, so that the CLI can print it as is.
 * `description` says what the file is for ("fixture file", "target file").
 *
 * @example
 * const value = await readJsonFile('fixtures/default.json', 'fixture file')
 */
export async function readJsonFile(path: string, description: string): Promise<unknown> {
  // Editors on some systems save a byte-order mark; JSON.parse refuses it.
  const text = (await readText(path, description)).replace(/^\uFEFF/, '')
  try {
    return JSON.parse(text)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    const where = describePosition(text, reason)
    throw new AppError('VALIDATION_FAILED', `The ${description} ${path} is not valid JSON${where}: ${shorten(reason)}`)
  }
}

async function readText(path: string, description: string): Promise<string> {
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const reason = code === 'ENOENT' ? 'no such file' : error instanceof Error ? error.message : String(error)
    throw new AppError('VALIDATION_FAILED', `Cannot read the ${description} ${path}: ${reason}.`)
  }
}

/** Line and column say where; V8's position and its multi-line snippet of the text only add noise. */
function shorten(reason: string): string {
  return reason.replace(/, (?:\.\.\.)?".*$/s, '').replace(/ in JSON at position \d+.*$/s, '')
}

function describePosition(text: string, reason: string): string {
  const offset = locateSyntaxError(text, reason)
  if (offset === undefined) return ''
  const before = text.slice(0, offset)
  const line = before.split('\n').length
  const column = offset - before.lastIndexOf('\n')
  return ` (line ${line}, column ${column})`
}

/** V8 names the offset of most JSON errors, but not of an unexpected token (Node 20). */
function locateSyntaxError(text: string, reason: string): number | undefined {
  const position = /at position (\d+)/.exec(reason)
  if (position) return Number(position[1])
  if (reason.includes('Unexpected end of JSON input')) return text.length
  if (reason.startsWith('Unexpected token')) return findUnexpectedToken(text)
  return undefined
}

/**
 * The shortest prefix that fails before its own end ends with the unexpected token: every shorter
 * prefix is valid JSON cut short.
 */
function findUnexpectedToken(text: string): number | undefined {
  let valid = 0
  let invalid = text.length
  if (!failsBeforeEnd(text)) return undefined
  while (invalid - valid > 1) {
    const middle = Math.floor((valid + invalid) / 2)
    if (failsBeforeEnd(text.slice(0, middle))) invalid = middle
    else valid = middle
  }
  return invalid - 1
}

function failsBeforeEnd(prefix: string): boolean {
  try {
    JSON.parse(prefix)
    return false
  } catch (error) {
    const reason = error instanceof Error ? error.message : ''
    const position = /at position (\d+)/.exec(reason)
    if (position) return Number(position[1]) < prefix.length
    return !reason.includes('Unexpected end of JSON input')
  }
}
