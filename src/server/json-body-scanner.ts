import { AppError } from '../errors.js'

/** Where a piece of the body lies, in bytes: `[start, end)`. */
export interface ByteSpan {
  start: number
  end: number
}

/** A member of the top-level object: its key, its value and, when the value is an array, each element. */
export interface TopMember {
  key: ByteSpan
  value: ByteSpan
  elements?: ByteSpan[]
}

export interface JsonBodyLimits {
  /** Bytes of the whole body. */
  bytes: number
  /** Arrays and objects nested at most this deep. */
  depth: number
  /** Values at most (objects, arrays, keys, strings, numbers, literals): what JSON.parse would build. */
  values: number
  /**
   * When set, the elements of the top-level object's arrays are found (a state's users) and bounded: how
   * many in all, and how many bytes each.
   */
  elements?: { count: number; bytes: number }
  /** The limits in words, for a 413's detail (`PUT /__mock/state takes at most …`). */
  said: string
}

/** A body scanned whole within its limits: its bytes and, for an object, where its members lie. */
export interface ScannedJson {
  bytes: Buffer
  /** The top-level object's members in order; undefined when the body is not an object. */
  members?: TopMember[]
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const COMMA = 0x2c
const COLON = 0x3a

function isWhiteSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09
}

/**
 * Reads a JSON body chunk by chunk as it arrives and refuses it as soon as it passes a limit, before
 * anything is parsed: its size, its depth, its number of values (JSON.parse of 12 MB of `{},` built four
 * million objects: 571 MiB and 2.7 s during which the mock answered nobody). With `elements`, it also
 * finds the elements of the top-level object's arrays, so that they can be parsed a slice at a time.
 * It checks no other syntax: JSON.parse does, on what is left and on each element.
 *
 * @example
 * const scanner = new JsonBodyScanner({ bytes: 16_384, depth: 8, values: 1_000 })
 * for (const chunk of chunks) scanner.write(chunk) // throws an AppError past a limit
 * const { bytes } = scanner.end()
 */
export class JsonBodyScanner {
  private readonly chunks: Buffer[] = []
  /** The body's bytes, when their number was declared: one copy of them, never two. */
  private whole: Buffer | undefined
  private size = 0
  private depth = 0
  /** The open arrays and objects, innermost last: a bracket must close what it opened. */
  private readonly opened: number[] = []
  private values = 0
  private inString = false
  private escaped = false
  private inScalar = false
  /** The offset of the last byte that was not white space outside strings. */
  private lastSignificant = -1
  private topIsObject: boolean | undefined
  private readonly members: TopMember[] = []
  private expectingKey = false
  private keyStart = -1
  private key: ByteSpan | undefined
  private valueStart = -1
  /** The elements of the member array being read, when elements are found. */
  private elements: ByteSpan[] | undefined
  private elementStart = -1
  private afterComma = false
  /** Where the member array whose elements were found ends: anything after it is the member's too. */
  private arrayEnd = -1
  private elementCount = 0

  /** `declaredBytes`: the Content-Length, when there is one (at most `limits.bytes`). */
  constructor(
    private readonly limits: JsonBodyLimits,
    declaredBytes?: number,
  ) {
    if (declaredBytes !== undefined && declaredBytes <= limits.bytes) this.whole = Buffer.allocUnsafe(declaredBytes)
  }

  write(chunk: Buffer): void {
    if (this.size + chunk.length > this.limits.bytes) throw this.tooLarge(`over ${this.limits.bytes} bytes`)
    for (let index = 0; index < chunk.length; index += 1) this.read(chunk[index] as number, this.size + index)
    if (this.whole !== undefined && this.size + chunk.length > this.whole.length) {
      // More than declared (HTTP's framing prevents it): kept as chunks from here.
      this.chunks.push(this.whole.subarray(0, this.size))
      this.whole = undefined
    }
    if (this.whole !== undefined) chunk.copy(this.whole, this.size)
    else this.chunks.push(chunk)
    this.size += chunk.length
    const open = this.elementStart === -1 ? 0 : this.size - this.elementStart
    if (this.limits.elements && open > this.limits.elements.bytes) throw this.elementTooLarge()
  }

  end(): ScannedJson {
    const bytes = this.whole !== undefined ? this.whole.subarray(0, this.size) : Buffer.concat(this.chunks, this.size)
    // Its bytes are the caller's from here: whatever still holds the scanner does not hold up to 64 MiB.
    this.whole = undefined
    this.chunks.length = 0
    return this.topIsObject ? { bytes, members: this.members } : { bytes }
  }

  private read(byte: number, offset: number): void {
    if (this.inString) {
      if (this.escaped) this.escaped = false
      else if (byte === BACKSLASH) this.escaped = true
      else if (byte === QUOTE) this.endString(offset)
      return
    }
    if (isWhiteSpace(byte)) {
      this.inScalar = false
      return
    }
    // Every byte of a member array but white space, its commas and its end is some element's: what lies
    // between its elements can then be nothing but separators (`[:]` is an element `:`, not `[]`).
    if (this.depth === 2 && this.elements && this.elementStart === -1 && byte !== COMMA && byte !== CLOSE_ARRAY) {
      this.elementStart = offset
    }
    switch (byte) {
      case QUOTE:
        if (this.depth === 1 && this.expectingKey && this.topIsObject) this.startKey(offset)
        else this.startValue(byte, offset)
        this.inString = true
        this.inScalar = false
        break
      case OPEN_OBJECT:
      case OPEN_ARRAY:
        this.startValue(byte, offset)
        this.open(byte, offset)
        break
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        this.close(byte, offset)
        break
      case COMMA:
        this.comma(offset)
        break
      case COLON:
        if (this.depth === 1 && this.topIsObject) this.expectingKey = false
        this.inScalar = false
        break
      default:
        if (!this.inScalar) this.startValue(byte, offset)
        this.inScalar = true
    }
    this.lastSignificant = offset
  }

  private count(): void {
    this.values += 1
    if (this.values > this.limits.values) throw this.tooLarge(`more than ${this.limits.values} JSON values`)
  }

  private startKey(offset: number): void {
    this.count()
    this.keyStart = offset
  }

  private startValue(byte: number, offset: number): void {
    this.count()
    if (this.depth === 0 && this.topIsObject === undefined) this.topIsObject = byte === OPEN_OBJECT
    if (this.depth === 1 && this.topIsObject && this.valueStart === -1) this.valueStart = offset
  }

  private endString(offset: number): void {
    this.inString = false
    if (this.keyStart !== -1) {
      this.key = { start: this.keyStart, end: offset + 1 }
      this.keyStart = -1
    }
    this.lastSignificant = offset
  }

  private open(byte: number, offset: number): void {
    this.inScalar = false
    this.opened.push(byte)
    this.depth += 1
    if (this.depth > this.limits.depth) {
      throw new AppError('VALIDATION_FAILED', `The request is invalid: JSON nested deeper than ${this.limits.depth}.`, {
        errors: [{ in: 'body', path: '', message: `is nested deeper than ${this.limits.depth} levels` }],
      })
    }
    if (this.depth === 1 && byte === OPEN_OBJECT && this.topIsObject) this.expectingKey = true
    // A member's value that is an array: its elements are found.
    if (this.depth === 2 && byte === OPEN_ARRAY && this.valueStart === offset && this.limits.elements) {
      this.elements = []
      this.elementStart = -1
      this.afterComma = false
    }
  }

  private close(byte: number, offset: number): void {
    this.inScalar = false
    // Spans are found by brackets: one that closes what it did not open would make them lie.
    const opening = this.opened.pop()
    if (opening !== (byte === CLOSE_ARRAY ? OPEN_ARRAY : OPEN_OBJECT)) throw notJson(offset)
    if (this.depth === 2 && this.elements && byte === CLOSE_ARRAY) {
      if (this.elementStart !== -1 || this.afterComma) this.endElement(offset)
      this.afterComma = false
      this.arrayEnd = offset + 1
    }
    if (this.depth === 1 && this.topIsObject && byte === CLOSE_OBJECT) this.endMember()
    this.depth -= 1
  }

  private comma(offset: number): void {
    this.inScalar = false
    if (this.depth === 2 && this.elements) {
      this.endElement(offset)
      this.afterComma = true
    } else if (this.depth === 1 && this.topIsObject) {
      this.endMember()
      this.expectingKey = true
    }
  }

  /** `[1,,2]` and `[1,]` leave an empty element: JSON.parse then says what is wrong. */
  private endElement(offset: number): void {
    const span =
      this.elementStart === -1
        ? { start: offset, end: offset }
        : { start: this.elementStart, end: this.lastSignificant + 1 }
    this.elementStart = -1
    const limits = this.limits.elements
    if (limits === undefined || this.elements === undefined) return
    if (span.end - span.start > limits.bytes) throw this.elementTooLarge()
    this.elementCount += 1
    if (this.elementCount > limits.count) throw this.tooLarge(`more than ${limits.count} elements in its arrays`)
    this.elements.push(span)
  }

  private endMember(): void {
    if (this.key !== undefined && this.valueStart !== -1) {
      // An array whose elements were found spans to its `]`: what follows it stays for JSON.parse to judge.
      const end = this.elements && this.arrayEnd !== -1 ? this.arrayEnd : this.lastSignificant + 1
      const member: TopMember = { key: this.key, value: { start: this.valueStart, end } }
      if (this.elements) member.elements = this.elements
      this.members.push(member)
    }
    this.key = undefined
    this.valueStart = -1
    this.elements = undefined
    this.arrayEnd = -1
  }

  private tooLarge(what: string): AppError {
    return new AppError('PAYLOAD_TOO_LARGE', `The body holds ${what}: ${this.limits.said}.`)
  }

  private elementTooLarge(): AppError {
    const bytes = this.limits.elements?.bytes ?? 0
    return new AppError('VALIDATION_FAILED', `The request is invalid: an element of an array is over ${bytes} bytes.`, {
      errors: [{ in: 'body', path: '', message: `holds an array element over ${bytes} bytes` }],
    })
  }
}

function notJson(offset: number): AppError {
  const message = `the body is not valid JSON (a bracket at byte ${offset} closes what it did not open)`
  return new AppError('VALIDATION_FAILED', `The request is invalid: ${message}.`, {
    errors: [{ in: 'body', path: '', message }],
  })
}
