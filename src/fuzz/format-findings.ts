import { escapeControlCharacters } from '../text/escape-control-characters.js'
import type { Finding } from './read-findings.js'
import { plural } from '../text/plural.js'

/** Findings by check, in the order the checks first failed. */
export function groupByCheck(findings: Finding[]): Map<string, Finding[]> {
  const groups = new Map<string, Finding[]>()
  for (const finding of findings) groups.set(finding.check, [...(groups.get(finding.check) ?? []), finding])
  return groups
}

/**
 * The kit's summary after Schemathesis's own output: the findings grouped by check, each with the
 * curl that reproduces it; `role` names the actor the run was fuzzed as, when there were several.
 *
 * @example
 * formatFindings([]) // 'users-api-kit fuzz: no findings.'
 */
export function formatFindings(findings: Finding[], role?: string): string {
  const run = role === undefined ? 'users-api-kit fuzz' : `users-api-kit fuzz as ${role}`
  if (findings.length === 0) return `\n${run}: no findings.`
  const groups = groupByCheck(findings)
  const lines = [`\n${run}: ${plural(findings.length, 'finding')} in ${plural(groups.size, 'check')}.`]
  for (const [check, group] of groups) {
    lines.push('', `${check} (${group.length})`)
    for (const finding of group) {
      const headline = [finding.code, finding.title].filter(Boolean).join(' ')
      // Each part on its line, as the target may have shaped it: escaped, so none can start a line of its own.
      const line = `  ✗ ${finding.operation}: ${headline}${finding.detail ? ` — ${finding.detail}` : ''}`
      lines.push(escapeControlCharacters(line))
      for (const curl of finding.curl) lines.push(`      ${escapeControlCharacters(curl)}`)
    }
  }
  lines.push(
    '',
    `[Filtered] hides the token sent: the ${role ?? 'owner'}'s (a disposable user's for a write that names no user id).`,
    '`st explain CODE` says more about a code.',
  )
  return lines.join('\n')
}
