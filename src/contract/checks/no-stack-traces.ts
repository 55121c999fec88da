import { describeValue } from './describe-value.js'
import { defineCheck } from './define-check.js'

/** What a stack trace leaves in a body: frames, an error naming a source file, installed packages. */
const STACK_TRACE_MARKS = [
  // V8: `    at handler (/app/src/users.js:12:7)`, `at /app/src/users.js:12:7`
  /^[ \t]*at (?:[^\n]+ \()?[^\s()]+:\d+:\d+\)?[ \t]*$/m,
  // JVM and .NET: `    at com.acme.Users.get(Users.java:42)`, `   at Acme.Users.Get() in Users.cs:line 42`
  /^[ \t]*at [\w$.<>]+\([\w$]+\.(?:java|kt|scala):\d+\)/m,
  /^[ \t]*at [^\n]+ in [^\n]+:line \d+/m,
  /\bError:[^\n]*?[/\\][^\s'"()]*\.(?:[cm]?[jt]sx?|py|java|kt|rb|go|php|cs|rs|scala|exs?)\b/,
  /node_modules[/\\]/,
  /^Traceback \(most recent call last\):/m,
  /^goroutine \d+ \[[a-z ]+\]:/m,
]

export const noStackTraces = defineCheck({
  name: 'no-stack-traces',
  rule: 'An error body never carries a stack trace (docs/contract.md §5: a 500 is INTERNAL, with no stack trace)',
  layer: 'profile',
  covers: ['§5.500'],
  verify({ response }) {
    if (response.status < 400) return undefined
    for (const text of textsOf(response.body ?? response.text)) {
      for (const mark of STACK_TRACE_MARKS) {
        const found = mark.exec(text)
        if (found)
          return `Received: a stack trace in the body: ${describeValue(found[0].trim())}\nDocumented: no stack traces in error bodies`
      }
    }
    return undefined
  },
})

/** Every string of a parsed body, so that the escaped new lines of JSON are new lines again. */
function textsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (typeof value !== 'object' || value === null) return []
  return Object.values(value).flatMap(textsOf)
}
