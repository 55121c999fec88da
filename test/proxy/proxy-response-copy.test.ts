import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib'
import { describe, expect, test } from 'vitest'
import { CopyBudget } from '../../src/proxy/copy-budget.js'
import { ResponseCopy, type ResponseCopyOptions } from '../../src/proxy/response-copy.js'

// The proxy's copy of an answer is read as verify reads one (contract/client/to-response.ts): decompressed,
// bounded by --max-response-bytes and by the budget all copies share, JSON parsed within 64 levels.

const MiB = 1024 * 1024

function copyOf(body: Buffer, headers: string[], options: Partial<ResponseCopyOptions> = {}) {
  const budget = options.budget ?? new CopyBudget(8 * MiB)
  const copy = new ResponseCopy({ status: 200, rawHeaders: headers, hasBody: true, maxBytes: MiB, budget, ...options })
  // As the upstream's socket gives it: in chunks of 16 KiB.
  for (let start = 0; start < body.length; start += 16 * 1024) copy.write(body.subarray(start, start + 16 * 1024))
  copy.end()
  return { outcome: copy.outcome, budget }
}

describe("the proxy's copy of an answer", () => {
  test('a gzip body is read decompressed and parsed; its headers are kept as they came', async () => {
    const { outcome } = copyOf(gzipSync('{"data":[]}'), [
      'Content-Type',
      'application/json',
      'Content-Encoding',
      'gzip',
    ])
    expect(await outcome).toEqual({
      response: {
        status: 200,
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        text: '{"data":[]}',
        body: { data: [] },
      },
    })
  })

  test('a brotli body too', async () => {
    const { outcome } = copyOf(brotliCompressSync('{"data":1}'), [
      'Content-Type',
      'application/json',
      'Content-Encoding',
      'br',
    ])
    expect(await outcome).toMatchObject({ response: { body: { data: 1 } } })
  })

  test('codings applied one after the other come off in reverse (RFC 9110 §8.4)', async () => {
    const body = gzipSync(deflateSync('{"data":2}'))
    const { outcome } = copyOf(body, ['Content-Type', 'application/json', 'Content-Encoding', 'deflate, gzip'])
    expect(await outcome).toMatchObject({ response: { body: { data: 2 } } })
  })

  test('a gzip bomb is inflated no further than the limit, and the budget is given back', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * MiB, 0x20))
    const { outcome, budget } = copyOf(bomb, ['Content-Type', 'application/json', 'Content-Encoding', 'gzip'])
    const read = await outcome
    expect(read).toMatchObject({ response: { refused: { limit: 'size' } } })
    expect(budget.inUse).toBe(0)
  })

  test('a Content-Length past the limit settles it before any byte is read', async () => {
    const { outcome } = copyOf(Buffer.alloc(0), ['Content-Type', 'application/json', 'Content-Length', String(2 * MiB)])
    expect(await outcome).toMatchObject({
      response: { refused: { limit: 'size', reason: expect.stringContaining('its Content-Length') } },
    })
  })

  test('past the budget all copies share, the answer is not checked', async () => {
    const { outcome } = copyOf(Buffer.alloc(600 * 1024, 0x20), ['Content-Type', 'text/plain'], {
      budget: new CopyBudget(256 * 1024),
    })
    expect(await outcome).toEqual({ unchecked: expect.stringContaining('not checked: the proxy already holds') })
  })

  test('a coding the proxy does not decode is not checked, and says which', async () => {
    const { outcome } = copyOf(Buffer.from('x'), ['Content-Encoding', 'compress'])
    expect(await outcome).toEqual({ unchecked: expect.stringContaining('(compress)') })
  })

  test('a gzip body that is not gzip is not checked either', async () => {
    const { outcome } = copyOf(Buffer.from('not gzip at all'), [
      'Content-Type',
      'application/json',
      'Content-Encoding',
      'gzip',
    ])
    expect(await outcome).toEqual({ unchecked: expect.stringContaining('does not decompress') })
  })
})
