/**
 * The reason phrases of RFC 9110 for the statuses the document gives (413's earlier name, of RFC 7231,
 * too): a problem whose type is about:blank has its status's as title (RFC 9457 §4.2.1, docs/contract.md
 * §5). The contract suite and the proxy hold problems to them.
 */
export const REASON_PHRASES: Readonly<Record<number, readonly string[]>> = {
  400: ['Bad Request'],
  401: ['Unauthorized'],
  403: ['Forbidden'],
  404: ['Not Found'],
  405: ['Method Not Allowed'],
  409: ['Conflict'],
  413: ['Content Too Large', 'Payload Too Large'],
  415: ['Unsupported Media Type'],
  429: ['Too Many Requests'],
  500: ['Internal Server Error'],
  503: ['Service Unavailable'],
}
