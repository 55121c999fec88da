import type { Exchange } from './exchange.js'
import { toCurl } from './to-curl.js'

/** One rule that an exchange broke: what was expected, what came. */
export interface Finding {
  /** The check's name, e.g. `errors-are-problem-details`. */
  check: string
  rule: string
  /** "Received: …\nDocumented: …" */
  message: string
}

/**
 * A failed check, written as a bug report: the rule, the request, expected vs received, and a curl
 * that reproduces it. Its message starts with `[check-name]`, which reports and tests look for.
 */
export class ContractViolation extends Error {
  override readonly name = 'ContractViolation'

  constructor(
    readonly findings: Finding[],
    readonly exchange: Exchange,
  ) {
    super(formatViolation(findings, exchange))
    // The report is the message: a stack into the suite's client says nothing about the backend.
    this.stack = `${this.name}: ${this.message}`
  }
}

export function formatViolation(findings: Finding[], exchange: Exchange): string {
  const { request, response } = exchange
  const lines = findings.flatMap((finding) => [`[${finding.check}] ${finding.rule}`, indent(finding.message), ''])
  lines.push(
    `Request:  ${request.method} ${request.url}${exchange.operation ? ` (${exchange.operation.operationId})` : ''}`,
  )
  if (request.body !== undefined) lines.push(`Body:     ${truncate(request.body)}`)
  // Status 0: no HTTP answer came (contract-client.ts), the finding says why.
  if (response.status === 0) lines.push('Response: none')
  else lines.push(`Response: ${response.status} ${response.headers['content-type'] ?? '(no content type)'}`)
  if (response.text) lines.push(`          ${truncate(response.text)}`)
  lines.push(`Reproduce: ${toCurl(request)}`)
  return lines.join('\n')
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
