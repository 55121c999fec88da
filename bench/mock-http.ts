/** The owner of the fixtures' first organization: every request of the benchmark is theirs. */
export const OWNER = { authorization: 'Bearer owner-token' }

export async function fetchText(url: string): Promise<string> {
  const response = await fetch(url, { headers: OWNER })
  const text = await response.text()
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status}\n${text}`)
  return text
}

/** `meta.total` of a list body. */
export function totalOf(listBody: string): number {
  return (JSON.parse(listBody) as { meta: { total: number } }).meta.total
}
