import { defineCheck } from './define-check.js'

/** RFC 9110 §10.2.3: delay-seconds, or an HTTP-date, which senders write as IMF-fixdate (§5.6.7). */
const DELAY_SECONDS = /^\d+$/
const IMF_FIXDATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/

export const retryAfterOn429 = defineCheck({
  name: 'retry-after-on-429',
  rule: 'A 429 carries Retry-After, in seconds or as an HTTP date (docs/contract.md §5)',
  layer: 'profile',
  covers: ['§5.429-503'],
  verify({ response }) {
    if (response.status !== 429) return undefined
    const retryAfter = response.headers['retry-after']
    if (retryAfter === undefined)
      return 'Received: no Retry-After header\nDocumented: Retry-After: <seconds> or <HTTP date>'
    const value = retryAfter.trim()
    if (DELAY_SECONDS.test(value) || (IMF_FIXDATE.test(value) && !Number.isNaN(Date.parse(value)))) return undefined
    return `Received: Retry-After: ${retryAfter}\nDocumented: Retry-After: <seconds> or <HTTP date> (RFC 9110 §10.2.3)`
  },
})
