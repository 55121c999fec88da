import { randomBytes } from 'node:crypto'

/** `/api/users/{id}`, the id escaped: ids are opaque (docs/contract.md §1). */
export function userPath(id: string): string {
  return `/api/users/${encodeURIComponent(id)}`
}

/** `/api/users?…`, the values escaped; `undefined` values are left out. */
export function listPath(query: Record<string, string | number | undefined> = {}): string {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) if (value !== undefined) search.append(name, String(value))
  const text = search.toString()
  return text === '' ? '/api/users' : `/api/users?${text}`
}

/** An id no organization holds: a random one, so that no real user can be hit by accident. */
export function unknownUserId(): string {
  return `usr_doesnotexist${randomText(16)}`
}

/** A search that matches no user. */
export function unmatchedSearch(): string {
  return `zq${randomText(18)}`
}

/** Lowercase letters and digits, random. */
export function randomText(length: number): string {
  return randomBytes(length)
    .toString('base64url')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, 'x')
    .slice(0, length)
}
