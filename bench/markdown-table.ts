/** A Markdown table padded into columns (as Prettier writes them), readable as is in a terminal. Numbers align right. */
export function markdownTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  )
  const numeric = headers.map(
    (_, column) => rows.length > 0 && rows.every((row) => /^[\d.,]+( [a-zA-Z/%]+)?$|^—$/.test(row[column] ?? '')),
  )
  const cell = (text: string, column: number): string =>
    numeric[column] ? text.padStart(widths[column]!) : text.padEnd(widths[column]!)
  const line = (cells: string[]): string => `| ${cells.map(cell).join(' | ')} |`
  const rule = `| ${widths.map((width, column) => (numeric[column] ? `${'-'.repeat(width - 1)}:` : '-'.repeat(width))).join(' | ')} |`
  return [line(headers), rule, ...rows.map(line)].join('\n')
}
