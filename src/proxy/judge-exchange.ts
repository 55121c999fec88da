import { RESPONSE_CHECKS } from '../contract/checks/index.js'
import { createExchangeChecker, type ExchangeChecker, type ResponseCheck } from '../contract/client/check-exchange.js'
import type { SentenceId } from '../contract/rules/contract-sentences.js'
import type { Finding } from '../contract/client/contract-violation.js'
import { createOperationMatcher, type OperationMatcher } from '../contract/client/match-operation.js'
import { UNUSABLE_ANSWER_CHECKS } from '../contract/client/unusable-answer.js'
import type { LoadedSpec } from '../spec/load-spec.js'
import { compileOperations } from '../spec/compile-operations.js'
import { listOperations } from '../spec/operations.js'
import { RequestJudge, type RequestToJudge, type RequestVerdict } from './judge-request.js'
import type { Knowledge } from './knowledge.js'
import { asksForAnError, type ObservedExchange } from './observed-exchange.js'
import { PROXY_RULES } from './rules/index.js'
import type { ProxyRule } from './rules/define-rule.js'
import { isHead } from '../http/methods.js'

/**
 * What the proxy says of an exchange. `violation`: the backend broke a rule of the contract.
 * `client`: the client's own request broke one (the backend is then held to the answer the contract
 * gives such a request, and blamed only if it gives another). `unchecked`: the proxy could not judge
 * the answer (over --max-response-bytes, nested too deep, its copy budget full).
 */
export interface ProxyFinding extends Finding {
  kind: 'violation' | 'client' | 'unchecked'
  /** The sentences of docs/contract.md it names; none for the document's own checks. */
  sentences: readonly SentenceId[]
}

/**
 * Judges each exchange the proxy forwarded: verify's response checks, run as verify's client runs them
 * (contract/client/check-exchange.ts, the same code on the same exchange), the request against the
 * document and §3's order, and the rules a passive observer can see (rules/). One instance per proxy.
 */
export class ExchangeJudge {
  /** The operation of the document a method and the client's path address (as verify's client finds it). */
  readonly operationOf: OperationMatcher
  private readonly checkExchange: ExchangeChecker
  private readonly requests: RequestJudge
  private readonly sentencesOf: Map<string, readonly SentenceId[]>

  constructor(
    spec: LoadedSpec,
    private readonly knowledge: Knowledge,
    private readonly rules: ProxyRule[] = PROXY_RULES,
    checks: ResponseCheck[] = RESPONSE_CHECKS,
  ) {
    this.operationOf = createOperationMatcher(listOperations(spec.dereferenced))
    this.checkExchange = createExchangeChecker(checks)
    this.requests = new RequestJudge(compileOperations(spec.dereferenced).operations)
    this.sentencesOf = new Map([
      ...checks.map((check) => [check.name, check.covers] as const),
      // The findings of verify's client that are not checks of src/contract/checks/: unusable answers.
      ...UNUSABLE_ANSWER_CHECKS.map((check) => [check.name, check.sentences] as const),
    ])
  }

  /** What the request alone says: the answer a correct backend gives it if it is the client's mistake. */
  judgeRequest(request: RequestToJudge): RequestVerdict {
    return this.requests.judge(request)
  }

  /** Every finding on one exchange whose answer the proxy could read; then learns from it. */
  judge(observed: ObservedExchange): ProxyFinding[] {
    const findings: ProxyFinding[] = []
    const { refusal } = observed
    if (refusal) {
      findings.push({
        kind: 'client',
        check: 'client-request',
        rule: "The client's own request breaks the contract: the backend must refuse it (docs/contract.md §3's order)",
        message: `Sent: ${refusal.why}\nExpected of the backend: ${refusal.status} (step ${refusal.step} of §3's order)`,
        sentences: [refusal.sentence],
      })
    }
    for (const finding of this.checkExchange(observed.exchange)) {
      findings.push({ ...finding, kind: 'violation', sentences: this.sentencesOf.get(finding.check) ?? [] })
    }
    // A HEAD answer has no content (RFC 9110 §9.3.2): the rules and the knowledge read answers' users and
    // pages, which it would give them as missing or empty. verify's checks above know HEAD.
    if (isHead(observed.exchange.request.method)) return findings
    // docs/contract.md §7: with `Prefer: code=NNN` a mock answers the error asked for in the operation's
    // place, an answer the rules would misread; a backend that ignores it is judged on other exchanges.
    const rules = asksForAnError(observed) ? [] : this.rules
    for (const rule of rules) {
      for (const { sentences, message } of rule.observe(observed, this.knowledge)) {
        findings.push({ kind: 'violation', check: rule.name, rule: rule.rule, message, sentences })
      }
    }
    this.knowledge.learn(observed)
    return findings
  }
}
