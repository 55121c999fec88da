/** One unique failure Schemathesis found, as its JUnit report states it. */
export interface Finding {
  /** Schemathesis's id of the first test case that showed it. */
  caseId: string
  /** The Schemathesis check that failed (`not_a_server_error`, …), or `error` when an operation could not be tested. */
  check: string
  /** Schemathesis's failure code (`ST101`; `st explain ST101` tells more); empty for an error. */
  code: string
  title: string
  /** The operation's label, `GET /api/users`. */
  operation: string
  /** The first line of Schemathesis's explanation, `Received: 500`. */
  detail: string
  /** The requests that reproduce it, in order (Authorization shows as `[Filtered]`). */
  curl: string[]
}

/**
 * The check behind each failure code, for a failure the NDJSON events do not name. Two codes belong to
 * two checks each (`st explain ST104`, `ST108`); the events tell which, this table gives the usual one.
 */
const CHECK_OF_CODE: Record<string, string> = {
  ST101: 'not_a_server_error',
  ST102: 'not_a_server_error',
  ST103: 'status_code_conformance',
  ST104: 'content_type_conformance',
  ST105: 'content_type_conformance',
  ST106: 'content_type_conformance',
  ST107: 'response_headers_conformance',
  ST108: 'response_schema_conformance',
  ST109: 'response_schema_conformance',
  ST110: 'response_schema_conformance',
  ST111: 'response_schema_conformance',
  ST112: 'max_response_time',
  ST201: 'negative_data_rejection',
  ST202: 'positive_data_acceptance',
  ST203: 'missing_required_header',
  ST204: 'unsupported_method',
  ST205: 'allow_header_conformance',
  ST301: 'use_after_free',
  ST302: 'ensure_resource_availability',
  ST401: 'ignored_auth',
  ST402: 'object_level_authorization',
}

/**
 * The findings of a Schemathesis run: its JUnit report lists each unique failure once, with the curl
 * that reproduces it; its NDJSON events name the check behind each failure of each test case.
 *
 * @example
 * readFindings({ junit: await readFile(junitPath, 'utf8'), ndjson: await readFile(ndjsonPath, 'utf8') })
 * // [{ check: 'not_a_server_error', code: 'ST101', operation: 'GET /api/users', curl: ['curl -X GET …'], … }]
 */
export function readFindings(reports: { junit: string; ndjson: string }): Finding[] {
  const checkNames = readCheckNames(reports.ndjson)
  const findings: Finding[] = []
  for (const testcase of reports.junit.matchAll(/<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const operation = decodeXml(attribute(testcase[1] ?? '', 'name') ?? '')
    for (const outcome of (testcase[2] ?? '').matchAll(/<(failure|error)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/g)) {
      const text = decodeXml(outcome[3] ?? attribute(outcome[2] ?? '', 'message') ?? '')
      if (outcome[1] === 'error') {
        findings.push({ caseId: '', check: 'error', code: '', title: 'Could not test', operation, ...readError(text) })
        continue
      }
      for (const failure of readFailureBlocks(text)) {
        const names = checkNames.get(`${failure.caseId} ${failure.code}`) ?? []
        const check = names.shift() ?? CHECK_OF_CODE[failure.code] ?? 'unknown'
        findings.push({ ...failure, check, operation })
      }
    }
  }
  return findings
}

/** `caseId code` → the names of the checks that failed with that code, from the ScenarioFinished events. */
function readCheckNames(ndjson: string): Map<string, string[]> {
  const names = new Map<string, string[]>()
  for (const line of ndjson.split('\n')) {
    if (!line.startsWith('{"ScenarioFinished"')) continue
    const event = JSON.parse(line) as { ScenarioFinished: { recorder?: { checks?: Record<string, RecordedCheck[]> } } }
    for (const [caseId, checks] of Object.entries(event.ScenarioFinished.recorder?.checks ?? {})) {
      for (const check of checks) {
        const code = check.failure_info?.failure?.code
        if (check.status !== 'failure' || !code) continue
        const key = `${caseId} ${code}`
        if (!names.get(key)?.includes(check.name)) names.set(key, [...(names.get(key) ?? []), check.name])
      }
    }
  }
  return names
}

interface RecordedCheck {
  name: string
  status: string
  failure_info?: { failure?: { code?: string } }
}

type FailureBlock = Omit<Finding, 'check' | 'operation'>

/**
 * The text of a JUnit `<failure>`: test cases headed `1. Test Case ID: abc`, each with `- ST101 Title`
 * lines followed by indented details, the response, and `Reproduce with:` and its curl lines.
 */
function readFailureBlocks(text: string): FailureBlock[] {
  const blocks: FailureBlock[] = []
  const parts = text.split(/^\d+\. Test Case ID: (\S+)\s*$/m)
  for (let index = 1; index < parts.length; index += 2) {
    const caseId = parts[index] ?? ''
    const body = parts[index + 1] ?? ''
    const reproduce = body.split(/^Reproduce with:\s*$/m)[1] ?? ''
    const curl = [...reproduce.matchAll(/^\s+(curl .+)$/gm)].map((match) => (match[1] ?? '').trim())
    let current: FailureBlock | undefined
    for (const line of body.split('\n')) {
      const heading = /^- (ST\d+) (.+)$/.exec(line)
      if (heading) {
        current = { caseId, code: heading[1] ?? '', title: (heading[2] ?? '').trim(), detail: '', curl }
        blocks.push(current)
      } else if (/^(?:\[\d{3}\]|Reproduce with:)/.test(line)) current = undefined
      else if (current && current.detail === '' && line.trim() !== '') current.detail = line.trim()
    }
  }
  return blocks
}

/**
 * The text of a JUnit `<error>`: a headline (`Network Error`), what happened (`Read timed out after
 * 1.0 seconds`; `Connection failed` and then Python's reason), and maybe `Reproduce with:` and a curl.
 * The detail says all of it, in words that tell a timeout from a reset from an answer that is not HTTP.
 */
function readError(text: string): Pick<Finding, 'detail' | 'curl'> {
  const [before = '', reproduce = ''] = text.split(/^Reproduce with:\s*$/m)
  const lines = before
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map(explainNetworkReason)
  const curl = [...reproduce.matchAll(/^\s+(curl .+)$/gm)].map((match) => (match[1] ?? '').trim())
  // A refusal of the kit's own hooks (schemathesis-hooks.py) is its message alone.
  const hook = /^Error in `\w+` hook: \w+: (users-api-kit .*)$/.exec(lines[1] ?? '')?.[1]
  return { detail: hook ?? lines.slice(0, 3).join(': '), curl }
}

/**
 * Python's words for a connection that ended without an HTTP answer (`requests` → urllib3 → http.client):
 * the reason after "Connection aborted." is an errno, RemoteDisconnected, or else the bytes that came
 * instead of a status line (BadStatusLine), which is an answer that is not HTTP.
 */
function explainNetworkReason(line: string): string {
  const aborted = /^Connection aborted\.\s*(.*)$/.exec(line)
  if (!aborted) return line
  const reason = aborted[1] ?? ''
  if (/Errno|RemoteDisconnected|closed connection|reset/i.test(reason) || reason === '') return line
  return `Connection aborted: the answer is not HTTP (it began ${JSON.stringify(reason.slice(0, 40))})`
}

function attribute(attributes: string, name: string): string | undefined {
  return new RegExp(`\\b${name}="([^"]*)"`).exec(attributes)?.[1]
}

const XML_ENTITIES: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' }

/** The text of an XML attribute or element, as Python's ElementTree writes it. */
function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|quot|apos|amp);/gi, (entity, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(parseInt(name.slice(2), 16))
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)))
    return XML_ENTITIES[name.toLowerCase()] ?? entity
  })
}
