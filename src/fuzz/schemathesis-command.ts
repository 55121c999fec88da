import { join } from 'node:path'
import type { DisposableUser } from '../contract/target/target.js'

/** Every phase of Schemathesis 4; `stateful` chains calls through the document's OpenAPI links. */
export const PHASES = ['examples', 'coverage', 'fuzzing', 'stateful'] as const

/** Methods that change something: `--read-only` sends none of them, not even as an undocumented-method probe. */
const WRITING_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const

export interface FuzzPlan {
  /** The `st` executable. */
  schemathesis: string
  /** The OpenAPI document, as an absolute path (Schemathesis runs in a scratch directory). */
  spec: string
  baseUrl: string
  /** The token of the actor fuzzed as (`--as`), sent as `Authorization: Bearer` by the hooks file, never on the command line. */
  token: string
  /** The only users a write may touch (see schemathesis-hooks.py). */
  disposable: DisposableUser[]
  /** `all` or a comma-separated list of Schemathesis checks. */
  checks: string
  stateful: boolean
  readOnly: boolean
  maxExamples?: number
  seed?: number
  workers?: number
  /**
   * Per request, to the answer's last byte: the deadline the kit's guard (response-guard.ts) holds each
   * request to. Schemathesis's own --request-timeout, which bounds each socket read only, is set a little
   * longer, a backstop that never fires first.
   */
  timeoutMs?: number
  /** `--output-sanitize false`: tokens as they are in Schemathesis's output and reports, not `[Filtered]`. */
  showSecrets?: boolean
  /** Where Schemathesis writes its JUnit and NDJSON reports. */
  reportDir: string
  hooksFile: string
  configFile: string
  /** What came after `--` on the kit's command line: passed to `st run` as it is, after the kit's own options. */
  extraArgs?: string[]
}

export interface SchemathesisCommand {
  file: string
  args: string[]
  /** Added to the environment of the `st` process. */
  env: Record<string, string>
  junitPath: string
  ndjsonPath: string
}

/** How much longer than the guard's deadline Schemathesis waits for a read: the guard's answer comes first. */
const BACKSTOP_MARGIN_MS = 5_000

/**
 * The `st run` command line and environment for a plan. Pure: the same plan gives the same command.
 *
 * @example
 * buildSchemathesisCommand({ schemathesis: '.venv/bin/st', spec: '/kit/openapi/users.yaml', baseUrl: 'http://127.0.0.1:4010', … })
 * // { file: '.venv/bin/st', args: ['--config-file', …, 'run', '/kit/openapi/users.yaml', '--url', …], env: { SCHEMATHESIS_HOOKS: … } }
 */
export function buildSchemathesisCommand(plan: FuzzPlan): SchemathesisCommand {
  const junitPath = join(plan.reportDir, 'schemathesis-junit.xml')
  const ndjsonPath = join(plan.reportDir, 'schemathesis-events.ndjson')
  const phases = plan.stateful ? PHASES : PHASES.filter((phase) => phase !== 'stateful')
  const args = [
    '--config-file',
    plan.configFile,
    'run',
    plan.spec,
    '--url',
    plan.baseUrl,
    '--checks',
    plan.checks,
    // allow_header_conformance reads only answers to OPTIONS, the CORS preflight that docs/contract.md §4
    // leaves outside the users API (CORS alone, an Allow of one's own, or nothing are all correct), and on
    // /api/users/me it wants PATCH and DELETE in Allow where the contract answers them 405 with Allow: GET.
    // It failed a correct backend (test/support/second-implementation/); verify checks Allow on 405s (allow-on-405).
    '--exclude-checks',
    'allow_header_conformance',
    '--phases',
    phases.join(','),
    '--report',
    'junit,ndjson',
    '--report-junit-path',
    junitPath,
    '--report-ndjson-path',
    ndjsonPath,
    ...optional('--max-examples', plan.maxExamples),
    ...optional('--seed', plan.seed),
    ...optional('--workers', plan.workers),
    ...optional(
      '--request-timeout',
      plan.timeoutMs === undefined ? undefined : (plan.timeoutMs + BACKSTOP_MARGIN_MS) / 1000,
    ),
    ...(plan.showSecrets ? ['--output-sanitize', 'false'] : []),
    // A users API answers for itself: a 3xx is the response under test (status_code_conformance fails
    // it), never followed, not even to the same host as Schemathesis would by default.
    '--max-redirects',
    '0',
    // One regex, not four --exclude-method: an exact filter that matches no operation (POST, PUT) is a warning.
    ...(plan.readOnly ? ['--exclude-method-regex', `^(${WRITING_METHODS.join('|')})$`] : []),
    // Last, so that an option given again there is the one Schemathesis keeps.
    ...(plan.extraArgs ?? []),
  ]
  const env = {
    SCHEMATHESIS_HOOKS: plan.hooksFile,
    USERS_API_KIT_TOKEN: plan.token,
    USERS_API_KIT_DISPOSABLE: JSON.stringify(plan.readOnly ? [] : plan.disposable),
    USERS_API_KIT_READ_ONLY: plan.readOnly ? '1' : '0',
    // The hooks' guard against a server that stopped answering needs the timeout (schemathesis-hooks.py).
    ...(plan.timeoutMs === undefined ? {} : { USERS_API_KIT_REQUEST_TIMEOUT: String(plan.timeoutMs / 1000) }),
  }
  return { file: plan.schemathesis, args, env, junitPath, ndjsonPath }
}

function optional(flag: string, value: number | undefined): string[] {
  return value === undefined ? [] : [flag, String(value)]
}
