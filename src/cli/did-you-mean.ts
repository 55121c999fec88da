/**
 * The known word closest to a mistyped one, when it is close enough to be what was meant (at most a
 * third of its letters wrong): `--prot` → `--port`, `mokc` → `mock`.
 *
 * @example
 * didYouMean('verfy', ['mock', 'verify']) // 'verify'
 */
export function didYouMean(typed: string, known: readonly string[]): string | undefined {
  let best: { word: string; distance: number } | undefined
  for (const word of known) {
    const distance = editDistance(typed.toLowerCase(), word.toLowerCase())
    if (!best || distance < best.distance) best = { word, distance }
  }
  if (!best || best.distance === 0) return best?.word
  return best.distance <= Math.max(1, Math.floor(best.word.length / 3)) ? best.word : undefined
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit (`mokc`). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)])
  for (let j = 1; j <= b.length; j++) (rows[0] as number[])[j] = j
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[]
    const above = rows[i - 1] as number[]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      row[j] = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j] as number, ((rows[i - 2] as number[])[j - 2] as number) + 1)
      }
    }
  }
  return (rows[a.length] as number[])[b.length] as number
}
