import { StringDecoder } from 'node:string_decoder'
import { Transform } from 'node:stream'
import { escapeControlCharacters } from '../text/escape-control-characters.js'

/** A line longer than this is passed on in pieces: memory stays bounded whatever the child prints. */
const MAX_LINE_CHARACTERS = 64 * 1024

/**
 * A stream that makes a child's output (Schemathesis's, which quotes what the target answered) safe to
 * print: UTF-8 decoded across chunks, each line rewritten by `rewrite` (the guard's URL back to the
 * target's) and its control characters escaped, new lines and tabs kept. No escape sequence a server
 * sent can then retitle a window, clear the screen or forge a line of the log.
 *
 * @example
 * child.stdout.pipe(createSafeOutput(guard.toTargetUrls)).pipe(process.stdout, { end: false })
 */
export function createSafeOutput(rewrite: (line: string) => string = (line) => line): Transform {
  const decoder = new StringDecoder('utf8')
  let pending = ''
  const render = (text: string) => escapeControlCharacters(rewrite(text))
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      pending += decoder.write(chunk)
      const lines = pending.split('\n')
      pending = lines.pop() ?? ''
      let out = lines.map((line) => `${render(line)}\n`).join('')
      if (pending.length > MAX_LINE_CHARACTERS) {
        out += render(pending)
        pending = ''
      }
      callback(null, out)
    },
    flush(callback) {
      const rest = pending + decoder.end()
      callback(null, rest === '' ? '' : render(rest))
    },
  })
}
