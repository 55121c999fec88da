import { escapeControlCharacters } from '../../text/escape-control-characters.js'
import type { Exchange } from './exchange.js'
import { redactSecrets } from '../../text/redact-secrets.js'
import { toCurl } from './to-curl.js'

/** One rule that an exchange broke: what was expected, what came. */
export interface Finding {
  /** The check's name, e.g. `errors-are-problem-details`. */
  check: string
  rule: string
  /** "Received: …\nDocumented: …" */
  message: string
}

/** What a report may show: secrets are masked unless the user asked for them (`--show-secrets`). */
export interface ReportOptions {
  showSecrets?: boolean
  /** The target's tokens: masked wherever they occur (a server may echo one). */
  secrets?: readonly string[]
}

/**
 * A failed check, written as a bug report: the rule, the request, expected vs received, and a curl
 * that reproduces it. Its message starts with `[check-name]`, which reports and tests look for. What
 * the server sent is printed with its control characters escaped, and the target's tokens masked.
 */
export class ContractViolation extends Error {
  override readonly name = 'ContractViolation'

  constructor(
    readonly findings: Finding[],
    readonly exchange: Exchange,
    options: ReportOptions = {},
  ) {
    super(formatViolation(findings, exchange, options))
    // The report is the message: a stack into the suite's client says nothing about the backend.
    this.stack = `${this.name}: ${this.message}`
  }

  /**
   * What vitest sends from its worker to the reporters: the report alone. The exchange (a body of up to
   * --max-response-bytes, the request's tokens) stays in the worker.
   */
  toJSON(): { name: string; message: string; stack: string } {
    return { name: this.name, message: this.message, stack: this.stack ?? this.message }
  }
}

export function formatViolation(findings: Finding[], exchange: Exchange, options: ReportOptions = {}): string {
  const { request, response } = exchange
  const lines = findings.flatMap((finding) => [`[${finding.check}] ${finding.rule}`, indent(finding.message), ''])
  lines.push(
    `Request:  ${request.method} ${request.url}${exchange.operation ? ` (${exchange.operation.operationId})` : ''}`,
  )
  if (request.body !== undefined) lines.push(`Body:     ${escapeControlCharacters(truncate(request.body))}`)
  // Status 0: no HTTP answer came (contract-client.ts), the finding says why.
  if (response.status === 0) lines.push('Response: none')
  else lines.push(`Response: ${response.status} ${response.headers['content-type'] ?? '(no content type)'}`)
  // On one line: a new line from the server must not start a line of the report.
  if (response.text) lines.push(`          ${escapeControlCharacters(truncate(response.text))}`)
  lines.push(`Reproduce: ${toCurl(request, options)}`)
  const report = escapeControlCharacters(lines.join('\n'), { multiline: true })
  return options.showSecrets ? report : redactSecrets(report, options.secrets ?? [])
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n')
}

function truncate(text: string, length = 500): string {
  return text.length > length ? `${text.slice(0, length)}…` : text
}
