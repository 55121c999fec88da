import { AsyncLocalStorage } from 'node:async_hooks'
import { inject, onTestFinished, test as vitestTest, type TestContext, type TestOptions } from 'vitest'
import type { Finding } from '../../src/contract/client/contract-violation.js'
import { ContractClient, type SendOptions } from '../../src/contract/client/contract-client.js'
import type { Exchange } from '../../src/contract/client/exchange.js'
import { DEFAULT_MAX_RESPONSE_BYTES } from '../../src/http/response-limits.js'
import type { SuiteLayer } from '../../src/contract/client/response-schemas.js'
import { parseTarget, type ActorName, type DisposableUser, type Target } from '../../src/contract/target/target.js'
import { listTargetTokens } from '../../src/contract/target/target-tokens.js'
import { loadSpec, type LoadedSpec } from '../../src/spec/load-spec.js'
import { RESPONSE_CHECKS } from '../../src/contract/checks/index.js'
import { SUITE_SETTINGS, type SuiteSettings } from '../../src/contract/run/suite-settings.js'
import {
  DISPOSABLE_SLOTS,
  DISPOSABLE_USERS_NEEDED,
  SLOTS_OF_THE_WAITING_FILES,
} from '../../src/target/disposable-slots.js'
import { chosenSkipReason } from '../../src/contract/run/skip-reasons.js'
import { ContractViolation } from '../../src/contract/client/contract-violation.js'

/**
 * What every scenario of the contract suite shares: the target, the document, and the client that
 * checks every response. `verify` provides the run's settings to the workers (suite-settings.ts).
 */
export interface Suite {
  target: Target
  /** The document the suite holds the target to. */
  spec: LoadedSpec
  client: ContractClient
  layer: SuiteLayer
  readOnly: boolean
  /** How long a request may take, to the answer's last byte (`--request-timeout`). */
  requestTimeoutMs: number
  /** When the run must end (`--run-timeout`), in milliseconds since the epoch. */
  runDeadline: number
  /** Whether the waiting files (the webhooks') run in a thread of their own (suite-settings.ts). */
  ownThreadForWaitingFiles: boolean
}

declare module 'vitest' {
  export interface ProvidedContext {
    [SUITE_SETTINGS]: SuiteSettings
  }
}

async function openSuite(): Promise<Suite> {
  const settings = inject(SUITE_SETTINGS) as SuiteSettings | undefined
  if (!settings) throw new Error('The contract suite runs through `users-api-kit verify`, which provides its target.')
  const target = parseTarget(settings.target)
  const spec = settings.loadedSpec ?? (await loadSpec(settings.spec || undefined))
  const { layer, timeoutMs } = settings
  const maxResponseBytes = settings.maxResponseBytes || DEFAULT_MAX_RESPONSE_BYTES
  const report = { showSecrets: settings.showSecrets, secrets: listTargetTokens(target) }
  const client = new ContractClient({
    baseUrl: target.baseUrl,
    spec,
    checks: RESPONSE_CHECKS,
    layer,
    timeoutMs,
    maxResponseBytes,
    report,
  })
  return {
    target,
    spec,
    client,
    layer,
    readOnly: settings.readOnly,
    requestTimeoutMs: timeoutMs,
    runDeadline: settings.runDeadline,
    ownThreadForWaitingFiles: settings.ownThreadForWaitingFiles === true,
  }
}

export const suite: Suite = await openSuite()

/** Who sends a request: an actor of the target, a disposable user, or a raw token. */
export type Sender = ActorName | DisposableUser | { token: string } | null

export type Request = Omit<SendOptions, 'token'> & { as: Sender }

/**
 * What the response-level checks found on the exchanges of the check running, held until the check's
 * own rule has spoken: a 200 where a 401 was due says so first, and a schema mismatch of that 200 second.
 */
const heldFindings = new AsyncLocalStorage<Map<Exchange, Finding[]>>()

/**
 * A check of the contract suite: vitest's `test`, whose exchanges' response-level findings are reported
 * after the check's own rule. Every file of the suite declares its checks with it.
 *
 * @example
 * test('[core] an unknown token is a 401', covers('§2.unknown-token'), async () => { … })
 */
export function test(name: string, options: TestOptions, body: (context: TestContext) => Promise<unknown>): void
export function test(name: string, body: (context: TestContext) => Promise<unknown>): void
export function test(
  name: string,
  options: TestOptions | ((context: TestContext) => Promise<unknown>),
  body?: (context: TestContext) => Promise<unknown>,
): void {
  const [settings, check] = typeof options === 'function' ? [{}, options] : [options, body]
  if (!check) throw new Error(`The check "${name}" has no body.`)
  vitestTest(name, settings, async (context) => {
    const held = new Map<Exchange, Finding[]>()
    try {
      await heldFindings.run(held, () => check(context))
    } catch (error) {
      throw withHeldFindings(error, held)
    }
    const [first] = held
    if (first) throw suite.client.violation([...first[1], ...othersHeld(held, first[0])], first[0])
  })
}

/**
 * A failed check's report, with what the response-level checks found on its answers after it; any other
 * error (a body that was not what the check could read) gives way to those findings, which explain it.
 */
function withHeldFindings(error: unknown, held: Map<Exchange, Finding[]>): unknown {
  const [first] = held
  if (!first) return error
  if (!(error instanceof ContractViolation)) {
    return isSkip(error) ? error : suite.client.violation([...first[1], ...othersHeld(held, first[0])], first[0])
  }
  const findings = [...held].flatMap(([, found]) => found)
  const also = findings.map((finding) => `[${finding.check}] ${finding.rule}`)
  error.message += `\n\nThe answers of this check also broke: ${[...new Set(also)].join('; ')}`
  error.stack = `${error.name}: ${error.message}`
  return error
}

/** vitest's `context.skip()` throws to stop a check: a skip is not a failure to explain. */
function isSkip(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === 'VITEST_PENDING'
}

/** A note of the findings on other exchanges than `first`, when there are some. */
function othersHeld(held: Map<Exchange, Finding[]>, first: Exchange): Finding[] {
  const others = [...held].filter(([exchange]) => exchange !== first).flatMap(([, found]) => found)
  if (others.length === 0) return []
  const rules = [...new Set(others.map((finding) => `[${finding.check}] ${finding.rule}`))]
  return [{ check: 'also', rule: `${others.length} more on other answers of this check`, message: rules.join('\n') }]
}

/**
 * Sends a request as someone; every response-level check runs on the answer. Inside a check, what they
 * find is reported when the check ends, after its own rule; elsewhere (hooks, the webhook receiver) at once.
 */
export async function send({ as, ...options }: Request): Promise<Exchange> {
  const token = as === null ? undefined : typeof as === 'string' ? suite.target.actors[as]?.token : as.token
  if (as !== null && token === undefined) throw new Error(`No token for ${JSON.stringify(as)}: call needActor first.`)
  const request = token === undefined ? options : { ...options, token }
  const held = heldFindings.getStore()
  if (!held) return suite.client.send(request)
  const { exchange, findings } = await suite.client.sendAndCheck(request)
  if (findings.length > 0) held.set(exchange, findings)
  return exchange
}

/** The actor's token, or the check is skipped, saying which actor the target lacks. */
export function needActor(context: TestContext, name: ActorName): void {
  if (!suite.target.actors[name]) context.skip(`the target has no "${name}" actor`)
}

// The slot table lives in src/ because `gate` checks before a run that the target has enough users.
export { DISPOSABLE_SLOTS, SLOTS_OF_THE_WAITING_FILES }

/** The disposable user of a slot (DISPOSABLE_SLOTS), or the check is skipped, saying how many the suite needs. */
export function needDisposable(context: TestContext, slot: keyof typeof DISPOSABLE_SLOTS): DisposableUser {
  const user = suite.target.disposable[DISPOSABLE_SLOTS[slot]]
  if (!user) {
    const count = suite.target.disposable.length
    context.skip(`the target lists ${count} disposable users; the suite needs ${DISPOSABLE_USERS_NEEDED}`)
  }
  return user as DisposableUser
}

/**
 * Skips a check because of what the user chose (a flag, a setting of the target), not for anything the
 * target lacks: `verify --strict` and `gate` accept such a skip (src/contract/run/skip-reasons.ts).
 */
export function skipByChoice(context: TestContext, reason: string): never {
  return context.skip(chosenSkipReason(reason))
}

/** Checks that write are skipped with `--read-only`, and counted as skipped (by choice). */
export function needWrites(context: TestContext): void {
  if (suite.readOnly) skipByChoice(context, '--read-only: this check writes')
}

/**
 * Runs `undo` when the check ends, passed or failed: every PATCH on a disposable user is undone. Pass
 * the test's context in concurrent tests, which vitest's global hook cannot tell apart.
 */
export function undoAfter(undo: () => Promise<unknown>, context?: TestContext): void {
  ;(context?.onTestFinished ?? onTestFinished)(async () => {
    await undo()
  })
}

/** Fails the check with a bug report unless the status is one of those expected. */
export function expectStatus(exchange: Exchange, expected: number | number[], rule: string): void {
  const allowed = Array.isArray(expected) ? expected : [expected]
  if (!allowed.includes(exchange.response.status)) {
    fail(exchange, rule, `Received: ${exchange.response.status}\nExpected: ${allowed.join(' or ')}`)
  }
}

/** Fails the check with a bug report when `holds` is false. */
export function expectRule(exchange: Exchange, holds: boolean, rule: string, message: string): void {
  if (!holds) fail(exchange, rule, message)
}

/** The check's rule first, then what the response-level checks found on the same answer. */
function fail(exchange: Exchange, rule: string, message: string): never {
  const held = heldFindings.getStore()
  const found = held?.get(exchange) ?? []
  held?.delete(exchange)
  throw suite.client.violation([{ check: 'scenario', rule, message }, ...found], exchange)
}
