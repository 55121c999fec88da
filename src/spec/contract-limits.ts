/** CONTRACT §5: bodies over 16 KiB are a 413, on every route. */
export const BODY_LIMIT = 16 * 1024

/** CONTRACT §3: an id over 4,096 characters cannot be an id (a 400 in `path`); the document's maxLength. */
export const MAX_ID_LENGTH = 4096

/** The only media type the users API reads: `application/json`, with any parameters. */
const JSON_MEDIA_TYPE = 'application/json'

/** Whether a Content-Type header names JSON (RFC 9110: case-insensitive, parameters allowed). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === JSON_MEDIA_TYPE
}
