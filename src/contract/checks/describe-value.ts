/** A value as a check's message shows it: JSON, cut after `length` characters. */
export function describeValue(value: unknown, length = 80): string {
  if (value === undefined) return 'nothing'
  const json = JSON.stringify(value) ?? String(value)
  return json.length > length ? `${json.slice(0, length)}…` : json
}
