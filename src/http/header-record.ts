/**
 * Raw headers as checks read them: names lower-cased, repeated ones joined with `, ` (as fetch joins
 * them): what verify's client (http-client.ts) and the proxy's checks read, so that both see the same.
 */
export function toHeaderRecord(rawHeaders: readonly string[]): Record<string, string> {
  const record: Record<string, string> = Object.create(null) as Record<string, string>
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = (rawHeaders[index] as string).toLowerCase()
    const value = rawHeaders[index + 1] as string
    record[name] = record[name] === undefined ? value : `${record[name]}, ${value}`
  }
  return record
}
