import { dataOf, operationOf, succeeded } from '../observed-exchange.js'
import { readPatchBody } from '../patch-body.js'
import type { SeenUser } from '../users-in-answer.js'
import { defineRule, found } from './define-rule.js'

/** The keys a PATCH sets (docs/contract.md §4). */
const KEYS = ['name', 'role', 'status'] as const

export const patchAnswersWhatWasAsked = defineRule({
  name: 'patch-answers-what-was-asked',
  rule: 'A PATCH answers the user it addressed as they are after the change: each field sent has the value sent, a name trimmed (docs/contract.md §1, §4)',
  observe(observed) {
    if (operationOf(observed) !== 'updateUser' || !succeeded(observed) || observed.refusal) return []
    const user = dataOf(observed) as SeenUser | undefined
    const sent = readPatchBody(observed)
    if (!user || typeof user.id !== 'string' || !sent) return []
    if (observed.userId !== undefined && user.id !== observed.userId)
      return found(
        '§4.patch.answer',
        `Received: user ${user.id}\nExpected: user ${observed.userId}, the one the PATCH addressed`,
      )
    for (const key of KEYS) {
      if (!(key in sent)) continue
      // §1: a name is stored trimmed of ECMAScript's white space.
      const expected = key === 'name' && typeof sent.name === 'string' ? sent.name.trim() : sent[key]
      if (user[key] !== expected)
        return found(
          key === 'name' ? ['§4.patch.answer', '§1.name'] : '§4.patch.answer',
          `Received: ${key} ${JSON.stringify(user[key])}\nExpected: ${JSON.stringify(expected)}, as the PATCH set it`,
        )
    }
    return []
  },
})
