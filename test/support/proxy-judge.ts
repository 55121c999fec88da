import { userIdOf } from '../../src/proxy/exchange-observer.js'
import { ExchangeJudge, type ProxyFinding } from '../../src/proxy/judge-exchange.js'
import { DEFAULT_KNOWLEDGE_LIMITS, Knowledge } from '../../src/proxy/knowledge.js'
import type { ObservedExchange } from '../../src/proxy/observed-exchange.js'
import { readCredentials } from '../../src/proxy/read-credentials.js'
import { loadSpec } from '../../src/spec/load-spec.js'
import { buildExchange, loadOperations, type ExchangeDraft } from './exchange-builder.js'

/** A hand-made exchange; `whole: false` as when the proxy did not read the request whole. */
export type ProxyDraft = ExchangeDraft & { whole?: boolean }

/** One hand-made exchange on its way through the judge: begun, not yet ended. */
export interface Pending {
  end(): ProxyFinding[]
}

/** The proxy's judge and knowledge, fed hand-made exchanges in the order a test writes them. */
export interface ProxyJudgeHarness {
  /** Judges an exchange that began after every earlier one ended: its findings (learned from afterwards). */
  judge(draft: ProxyDraft): ProxyFinding[]
  /** Begins an exchange now; `end()` ends and judges it, so that tests can overlap exchanges. */
  begin(draft: ProxyDraft): Pending
  /** Moves the judge's time on (it starts at 0 and moves only so): how fresh what it saw is. */
  pass(ms: number): void
  knowledge: Knowledge
}

/**
 * The proxy's judge on the kit's own document, without any network: what a rule says of a sequence of
 * exchanges a test writes by hand.
 *
 * @example
 * const proxy = await createProxyJudge()
 * proxy.judge({ path: '/api/users/me', token: 'bot', status: 200, json: { data: aBot } })
 * expect(proxy.judge({ path: '/api/users', token: 'bot', status: 200, json: aList })).toEqual([…])
 */
export async function createProxyJudge(): Promise<ProxyJudgeHarness> {
  const spec = await loadSpec()
  const operations = await loadOperations()
  let time = 0
  const knowledge = new Knowledge(DEFAULT_KNOWLEDGE_LIMITS, () => time)
  const judge = new ExchangeJudge(spec, knowledge)
  let clock = 0
  const begin = (draft: ProxyDraft): Pending => {
    const startedAt = ++clock
    const exchange = buildExchange(operations, draft)
    const [path = '/', rawQuery = ''] = draft.path.split('?')
    const method = exchange.request.method
    const rawHeaders = Object.entries(exchange.request.headers).flat()
    const userId = exchange.operation && userIdOf(exchange.operation, path)
    knowledge.begin(method, userId, startedAt)
    return {
      end() {
        const credentials = readCredentials(rawHeaders)
        // As the proxy reads it: the bytes of the body, none when none was sent.
        const body = Buffer.from(draft.requestBody ?? '')
        const { refusal, valid } = judge.judgeRequest({
          request: exchange.request,
          credentials,
          path,
          rawQuery,
          bodyBytes: body.byteLength,
          body,
          ...(draft.whole === undefined ? {} : { whole: draft.whole }),
          ...(exchange.operation ? { operation: exchange.operation } : {}),
        })
        const observed: ObservedExchange = {
          exchange,
          credentials,
          path,
          query: new URLSearchParams(rawQuery),
          requestBytes: body.byteLength,
          startedAt,
          endedAt: ++clock,
          ...(userId === undefined ? {} : { userId }),
          ...(refusal === undefined ? {} : { refusal }),
          valid,
        }
        return judge.judge(observed)
      },
    }
  }
  return { begin, judge: (draft) => begin(draft).end(), pass: (ms) => (time += ms), knowledge }
}

/** The check and sentences of each violation: what tests compare. */
export function violations(findings: ProxyFinding[]): string[] {
  return findings
    .filter((finding) => finding.kind === 'violation')
    .map((finding) => `${finding.check} ${finding.sentences.join(' ')}`)
}
