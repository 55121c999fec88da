import type { SentenceId } from '../contract/rules/contract-sentences.js'
import { formatViolation } from '../contract/client/contract-violation.js'
import { escapeControlCharacters } from '../text/escape-control-characters.js'
import type { Exchange } from '../contract/client/exchange.js'
import { redactSecrets } from '../text/redact-secrets.js'
import { toCurl } from '../contract/client/to-curl.js'
import type { ProxyFinding } from './judge-exchange.js'

/**
 * One finding as the proxy shows it (stderr, the live page, the reports): the rule, the sentences, the
 * exchange and a curl, its tokens masked and its control characters written out. Nothing in it holds a
 * token: every place that shows it may be read by others.
 */
export interface FindingEntry {
  /** Counts up from 1 over the proxy's run. */
  id: number
  /** When the exchange ended, ISO 8601. */
  at: string
  kind: ProxyFinding['kind']
  check: string
  rule: string
  sentences: readonly SentenceId[]
  /** "Received: …\nExpected: …" */
  message: string
  method: string
  /** The client's request target: path and query. */
  target: string
  /** 0 when no answer came. */
  status: number
  /** The whole report, as verify prints a failure: rule, message, request, answer, curl. */
  report: string
  /** A curl that sends the same request to the upstream. */
  curl: string
}

/**
 * The entry of a finding on an exchange, with every secret masked: credentials headers, and any of the
 * `secrets` (the tokens the proxy knows) wherever the upstream echoed one.
 */
export function toFindingEntry(
  finding: ProxyFinding,
  exchange: Exchange,
  target: string,
  secrets: readonly string[],
  id: number,
): FindingEntry {
  const safe = (text: string): string => escapeControlCharacters(redactSecrets(text, secrets), { multiline: true })
  return {
    id,
    at: new Date().toISOString(),
    kind: finding.kind,
    check: finding.check,
    rule: finding.rule,
    sentences: finding.sentences,
    message: safe(finding.message),
    method: exchange.request.method,
    target: safe(target),
    status: exchange.response.status,
    report: formatViolation([finding], exchange, { secrets }),
    curl: escapeControlCharacters(redactSecrets(toCurl(exchange.request), secrets)),
  }
}

/**
 * One line for stderr: the kind, the check, its sentences, the request and the answer's status, the
 * first line of what was received. Control characters escaped: a server's text cannot drive a terminal.
 *
 * @example
 * formatFindingLine(entry) // '✗ [permission-table-holds] §3.name.refuses PATCH /api/users/usr_x → 200: Received: 200 for …'
 */
export function formatFindingLine(entry: FindingEntry): string {
  const mark = entry.kind === 'violation' ? '✗' : entry.kind === 'client' ? 'client:' : 'not checked:'
  const sentences = entry.sentences.length > 0 ? ` ${entry.sentences.join(' ')}` : ''
  const received = entry.message.split('\n')[0] ?? ''
  const status = entry.status === 0 ? 'no answer' : String(entry.status)
  return escapeControlCharacters(
    `${mark} [${entry.check}]${sentences} ${entry.method} ${entry.target} → ${status}: ${received}`,
  )
}
