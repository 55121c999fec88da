/**
 * A byte count for people: `4 MiB (4194304 bytes)`, `1500 bytes`.
 *
 * @example
 * describeBytes(4 * 1024 * 1024) // '4 MiB (4194304 bytes)'
 */
export function describeBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB (${bytes} bytes)`
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB (${bytes} bytes)`
  return `${bytes} bytes`
}
