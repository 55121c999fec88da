import { isHead } from './methods.js'

/**
 * RFC 9110 §6.4.1: an answer to HEAD, a 204 and a 304 carry no content, whatever their headers say (a
 * HEAD's Content-Length is the GET's). What reads, checks or forwards an answer asks here.
 */
export function hasNoContentByHttp(method: string, status: number): boolean {
  return isHead(method) || status === 204 || status === 304
}
