import { usersInAnswer } from '../users-in-answer.js'
import { defineRule, found } from './define-rule.js'

export const namesAreStoredTrimmed = defineRule({
  name: 'names-are-stored-trimmed',
  rule: "A user's name is stored trimmed of white space at both ends (docs/contract.md §1)",
  observe(observed) {
    // ECMAScript's trim is the contract's white space (§1), exactly.
    const untrimmed = usersInAnswer(observed).find(
      (user) => typeof user.name === 'string' && user.name !== user.name.trim(),
    )
    if (!untrimmed) return []
    return found(
      '§1.name',
      `Received: ${untrimmed.id} named ${JSON.stringify(untrimmed.name)}\nExpected: ${JSON.stringify(untrimmed.name?.trim())}, stored trimmed`,
    )
  },
})
