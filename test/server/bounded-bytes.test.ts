import { describe, expect, test } from 'vitest'
import { BoundedBytes, readUpTo } from '../../src/streams/bounded-bytes.js'

const bytes = (...values: number[]): Uint8Array => new Uint8Array(values)

describe('BoundedBytes, what every reader of a body keeps', () => {
  test('keeps a body within the limit whole, says it is within, and wants no more once full', () => {
    const body = new BoundedBytes(4)
    expect(body.write(bytes(1, 2))).toBe(true)
    expect(body.write(bytes(3))).toBe(true)
    expect(body.write(bytes(4))).toBe(false)
    expect(body.over).toBe(false)
    expect([...body.bytes()]).toEqual([1, 2, 3, 4])
  })

  test('the part of a chunk that fills the limit is a copy, not a view of the whole chunk', () => {
    const chunk = new Uint8Array(64 * 1024)
    const body = new BoundedBytes(10)
    body.write(chunk)
    expect(body.bytes().buffer.byteLength).toBe(10)
  })

  test('past the limit keeps the first bytes only, and counts every byte', () => {
    const body = new BoundedBytes(3)
    expect(body.write(bytes(1, 2))).toBe(true)
    expect(body.write(bytes(3, 4, 5))).toBe(false)
    expect(body.write(bytes(6))).toBe(false)
    expect(body.over).toBe(true)
    expect(body.total).toBe(6)
    expect([...body.bytes()]).toEqual([1, 2, 3])
  })

  test('an empty body is no bytes', () => {
    expect(new BoundedBytes(3).bytes().byteLength).toBe(0)
  })
})

describe('readUpTo', () => {
  test('stops reading an endless stream once past the limit, and cancels it', async () => {
    let pulled = 0
    let cancelled = false
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1
        controller.enqueue(new Uint8Array(1000))
      },
      cancel() {
        cancelled = true
      },
    })
    const body = await readUpTo(endless, 2500)
    expect(body.over).toBe(true)
    expect(body.bytes().byteLength).toBe(2500)
    expect(cancelled).toBe(true)
    expect(pulled).toBeLessThan(6)
  })

  test('reads a stream within the limit to its end', async () => {
    const body = await readUpTo(new Blob(['hé', 'llo']).stream(), 100)
    expect(new TextDecoder().decode(body.bytes())).toBe('héllo')
    expect(body.over).toBe(false)
  })
})
