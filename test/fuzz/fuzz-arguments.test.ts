import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { findSchemathesis, type SchemathesisLookup } from '../../src/fuzz/find-schemathesis.js'
import { SCHEMATHESIS_VERSION } from '../../src/fuzz/schemathesis-places.js'
import { readFindings } from '../../src/fuzz/read-findings.js'
import { parseActors } from '../../src/cli/fuzz-command.js'
import { buildSchemathesisCommand, type FuzzPlan } from '../../src/fuzz/schemathesis-command.js'

const PLAN: FuzzPlan = {
  schemathesis: '/kit/.venv/bin/st',
  spec: '/kit/openapi/users.yaml',
  baseUrl: 'http://127.0.0.1:4010',
  token: 'owner-token',
  disposable: [{ id: 'usr_a', token: 'tok_a' }],
  checks: 'all',
  stateful: true,
  readOnly: false,
  reportDir: '/tmp/run',
  hooksFile: '/kit/src/fuzz/schemathesis-hooks.py',
  configFile: '/kit/src/fuzz/schemathesis.toml',
}

/** The value after a flag in an argument list. */
function valueOf(args: string[], flag: string): string | undefined {
  const index = args.indexOf(flag)
  return index === -1 ? undefined : args[index + 1]
}

describe('the Schemathesis command line', () => {
  test('runs `st run` on the document and the base URL with every check, every phase, JUnit and NDJSON', () => {
    const command = buildSchemathesisCommand(PLAN)
    expect(command.file).toBe('/kit/.venv/bin/st')
    expect(command.args.slice(0, 4)).toEqual(['--config-file', PLAN.configFile, 'run', PLAN.spec])
    expect(valueOf(command.args, '--url')).toBe('http://127.0.0.1:4010')
    expect(valueOf(command.args, '--checks')).toBe('all')
    // OPTIONS is CORS's, outside the contract: the one check that reads only its answers is left out.
    expect(valueOf(command.args, '--exclude-checks')).toBe('allow_header_conformance')
    expect(valueOf(command.args, '--phases')).toBe('examples,coverage,fuzzing,stateful')
    expect(valueOf(command.args, '--report')).toBe('junit,ndjson')
    expect(valueOf(command.args, '--report-junit-path')).toBe(join('/tmp/run', 'schemathesis-junit.xml'))
    expect(command.junitPath).toBe(join('/tmp/run', 'schemathesis-junit.xml'))
    expect(valueOf(command.args, '--report-ndjson-path')).toBe(command.ndjsonPath)
  })

  test('keeps tokens off the command line: the hooks file gets them from the environment', () => {
    const command = buildSchemathesisCommand(PLAN)
    expect(command.args.join(' ')).not.toContain('owner-token')
    expect(command.args.join(' ')).not.toContain('tok_a')
    expect(command.env).toEqual({
      SCHEMATHESIS_HOOKS: PLAN.hooksFile,
      USERS_API_KIT_TOKEN: 'owner-token',
      USERS_API_KIT_DISPOSABLE: JSON.stringify([{ id: 'usr_a', token: 'tok_a' }]),
      USERS_API_KIT_READ_ONLY: '0',
    })
  })

  test('passes --max-examples, --seed and --workers only when given', () => {
    expect(buildSchemathesisCommand(PLAN).args).not.toContain('--max-examples')
    expect(buildSchemathesisCommand(PLAN).args).not.toContain('--seed')
    const args = buildSchemathesisCommand({ ...PLAN, maxExamples: 15, seed: 0, workers: 2 }).args
    expect(valueOf(args, '--max-examples')).toBe('15')
    expect(valueOf(args, '--seed')).toBe('0')
    expect(valueOf(args, '--workers')).toBe('2')
  })

  test('without the stateful phase, runs the three others', () => {
    expect(valueOf(buildSchemathesisCommand({ ...PLAN, stateful: false }).args, '--phases')).toBe(
      'examples,coverage,fuzzing',
    )
  })

  test('--read-only excludes every writing method, and hands the hooks no disposable user', () => {
    const command = buildSchemathesisCommand({ ...PLAN, readOnly: true })
    const pattern = new RegExp(valueOf(command.args, '--exclude-method-regex') ?? '(?!)')
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) expect(pattern.test(method), method).toBe(true)
    for (const method of ['GET', 'HEAD', 'OPTIONS']) expect(pattern.test(method), method).toBe(false)
    expect(command.env.USERS_API_KIT_READ_ONLY).toBe('1')
    expect(command.env.USERS_API_KIT_DISPOSABLE).toBe('[]')
  })

  test("ends with what came after -- on the kit's command line, as it is", () => {
    const args = buildSchemathesisCommand({
      ...PLAN,
      extraArgs: ['--max-examples', '7', '--generation-mode', 'positive'],
    }).args
    expect(args.slice(-4)).toEqual(['--max-examples', '7', '--generation-mode', 'positive'])
  })

  test('sends the token of the actor it fuzzes as', () => {
    expect(buildSchemathesisCommand({ ...PLAN, token: 'viewer-token' }).env['USERS_API_KIT_TOKEN']).toBe('viewer-token')
  })

  test("--as takes the target's actors, comma-separated, each once; the owner by default", () => {
    expect(parseActors(undefined)).toEqual(['owner'])
    expect(parseActors('owner,admin,viewer,bot')).toEqual(['owner', 'admin', 'viewer', 'bot'])
    expect(parseActors('viewer, viewer')).toEqual(['viewer'])
    expect(() => parseActors('owner,root')).toThrow(/--as takes the target's actors.*"root"/)
  })

  test('passes a list of checks as given', () => {
    const args = buildSchemathesisCommand({ ...PLAN, checks: 'not_a_server_error,use_after_free' }).args
    expect(valueOf(args, '--checks')).toBe('not_a_server_error,use_after_free')
  })
})

describe('finding Schemathesis', () => {
  const lookup = (executables: string[], overrides: Partial<SchemathesisLookup> = {}): SchemathesisLookup => ({
    env: { PATH: ['/usr/local/bin', '/usr/bin'].join(process.platform === 'win32' ? ';' : ':') },
    packageRoot: '/kit',
    isClone: true,
    platform: 'linux',
    isExecutable: (path) => executables.includes(path),
    ...overrides,
  })
  const everywhere = ['/opt/st', '/env/st', join('/kit', '.venv', 'bin', 'st'), join('/usr/bin', 'st')]

  test('takes --schemathesis first', () => {
    expect(findSchemathesis(lookup(everywhere, { option: '/opt/st', env: { SCHEMATHESIS_BIN: '/env/st' } }))).toEqual({
      path: '/opt/st',
      source: '--schemathesis',
    })
  })

  test('then SCHEMATHESIS_BIN', () => {
    expect(findSchemathesis(lookup(everywhere, { env: { SCHEMATHESIS_BIN: '/env/st', PATH: '/usr/bin' } }))).toEqual({
      path: '/env/st',
      source: 'SCHEMATHESIS_BIN',
    })
  })

  test("then the kit's virtualenv", () => {
    expect(findSchemathesis(lookup(everywhere))).toEqual({
      path: join('/kit', '.venv', 'bin', 'st'),
      source: 'virtualenv',
    })
  })

  test('then st on PATH, in PATH order', () => {
    const found = findSchemathesis(lookup([join('/usr/bin', 'st'), join('/usr/local/bin', 'st')]))
    expect(found).toEqual({ path: join('/usr/local/bin', 'st'), source: 'PATH' })
  })

  test('fails on an explicit path that is not executable, rather than taking another', () => {
    expect(() => findSchemathesis(lookup(everywhere, { option: '/missing/st' }))).toThrow(
      /--schemathesis \/missing\/st is not an executable file/,
    )
    expect(() => findSchemathesis(lookup(everywhere, { env: { SCHEMATHESIS_BIN: '/missing/st' } }))).toThrow(
      /SCHEMATHESIS_BIN/,
    )
  })

  test('when there is none, says the one command that installs it: npm run setup:fuzz in a clone', () => {
    expect(() => findSchemathesis(lookup([]))).toThrow(/not installed\.\nInstall it with: npm run setup:fuzz/)
  })

  test('and users-api-kit setup-fuzz for an installed package (pip refuses on Debian and Ubuntu)', () => {
    expect(() => findSchemathesis(lookup([], { isClone: false }))).toThrow(
      `Install it with: npx users-api-kit setup-fuzz   (a private virtual environment with Schemathesis ${SCHEMATHESIS_VERSION}`,
    )
  })

  test("looks for st.exe in the virtualenv's Scripts on Windows", () => {
    const st = join('/kit', '.venv', 'Scripts', 'st.exe')
    expect(findSchemathesis(lookup([st], { platform: 'win32' }))).toEqual({ path: st, source: 'virtualenv' })
  })
})

describe("reading Schemathesis's reports", () => {
  const junit = `<?xml version="1.0" encoding="utf-8"?>
<testsuites errors="1" failures="1" skipped="0" tests="3" time="1.0">
  <testsuite name="schemathesis" errors="1" failures="1" skipped="0" tests="3" time="1.0">
    <testcase name="GET /api/users" time="0.5">
      <failure type="failure" message="ST101, ST103">1. Test Case ID: aB1

- ST101 Server error

- ST103 Undocumented status code

    Received: 500
    Documented: 200, 400

[500] Internal Server Error:

    \`{&quot;status&quot;:500}\`

Reproduce with:

    curl -X GET -H 'Authorization: [Filtered]' 'http://127.0.0.1:4010/api/users?page=a&amp;limit=1'</failure>
    </testcase>
    <testcase name="GET /api/users/{id}" time="0.4">
      <failure type="failure" message="ST108">1. Test Case ID: cD2

- ST108 Response violates schema

    &quot;SUPERUSER&quot; is not one of &quot;CLIENT_OWNER&quot;

Reproduce with:

    curl -X GET -H 'Authorization: [Filtered]' http://127.0.0.1:4010/api/users/usr_1</failure>
    </testcase>
    <testcase name="DELETE /api/users/{id}" time="0.1">
      <error message="Network error">Connection refused</error>
    </testcase>
    <testcase name="GET /api/users/me" time="0.0" />
  </testsuite>
</testsuites>`
  const ndjson = [
    JSON.stringify({ Initialize: { schemathesis_version: SCHEMATHESIS_VERSION } }),
    JSON.stringify({
      ScenarioFinished: {
        recorder: {
          checks: {
            cD2: [
              { name: 'not_a_server_error', status: 'success' },
              // ST108 is shared by two checks: the events say which one failed.
              { name: 'response_headers_conformance', status: 'failure', failure_info: { failure: { code: 'ST108' } } },
            ],
          },
        },
      },
    }),
  ].join('\n')

  test('gives one finding per failed check, named by the events, else by its code, with its curl', () => {
    const findings = readFindings({ junit, ndjson })
    expect(findings.map((finding) => [finding.check, finding.code, finding.operation])).toEqual([
      ['not_a_server_error', 'ST101', 'GET /api/users'],
      ['status_code_conformance', 'ST103', 'GET /api/users'],
      ['response_headers_conformance', 'ST108', 'GET /api/users/{id}'],
      ['error', '', 'DELETE /api/users/{id}'],
    ])
    expect(findings[0]?.curl).toEqual([
      "curl -X GET -H 'Authorization: [Filtered]' 'http://127.0.0.1:4010/api/users?page=a&limit=1'",
    ])
    expect(findings[1]?.detail).toBe('Received: 500')
    expect(findings[2]?.detail).toBe('"SUPERUSER" is not one of "CLIENT_OWNER"')
    expect(findings[3]?.detail).toBe('Connection refused')
  })

  test('gives nothing for a clean run', () => {
    const clean =
      '<testsuites><testsuite name="schemathesis"><testcase name="GET /api/users" /></testsuite></testsuites>'
    expect(readFindings({ junit: clean, ndjson: '' })).toEqual([])
  })
})
