import type { User, UserPatch } from '../../src/domain/user.js'

/** A PATCH the server answered 200: what it asked, what it answered, and when (as the client saw it). */
export interface AnsweredPatch {
  patch: UserPatch
  /** The user in the 200 answer. */
  result: User
  startedAt: number
  answeredAt: number
}

/**
 * The serial order that explains concurrent PATCHes of one user, or an Error saying why none does.
 *
 * The store stamps every change with a later `updatedAt` (CONTRACT §1), so the only candidate order
 * is by `updatedAt`. It explains the answers when, replayed from `initial`:
 * - each answer that changed the user equals the user before it with its own patch applied, and its
 *   `updatedAt` is later than the one before;
 * - each answer that changed nothing (its values were already set: CONTRACT §4, no change and the
 *   same `updatedAt`) equals the user as it then was;
 * - an answer the client received before it sent another request comes no later in the order.
 * Returns the user after the last PATCH of the order.
 */
export function replaySerially(initial: User, answers: AnsweredPatch[]): User {
  const groups = groupByUpdatedAt(answers)
  let current = initial
  const position = new Map<AnsweredPatch, number>()
  groups.forEach((group, index) => {
    const state = group[0]!.result
    for (const answer of group) {
      if (!sameUser(answer.result, state)) {
        throw new Error(`Two answers with updatedAt ${state.updatedAt} differ:\n${show(state)}\n${show(answer.result)}`)
      }
      if (!sameUser(applyPatch(state, answer.patch), state)) {
        throw new Error(`The answer to ${JSON.stringify(answer.patch)} does not hold its own values:\n${show(state)}`)
      }
      position.set(answer, index)
    }
    if (state.updatedAt === current.updatedAt) {
      if (!sameUser(state, current)) throw new Error(`A change kept updatedAt ${state.updatedAt}:\n${show(state)}`)
      return
    }
    if (state.updatedAt < current.updatedAt) throw new Error(`updatedAt went back to ${state.updatedAt}`)
    const changer = group.find((answer) => sameFields(applyPatch(current, answer.patch), state))
    if (!changer) {
      throw new Error(
        `No PATCH turns\n${show(current)}\ninto\n${show(state)}\n(patches: ${group.map((answer) => JSON.stringify(answer.patch)).join(', ')})`,
      )
    }
    current = state
  })
  for (const before of answers) {
    for (const after of answers) {
      if (before.answeredAt < after.startedAt && position.get(before)! > position.get(after)!) {
        throw new Error(
          `${JSON.stringify(before.patch)} was answered before ${JSON.stringify(after.patch)} was sent, yet it comes later by updatedAt (${before.result.updatedAt} > ${after.result.updatedAt}).`,
        )
      }
    }
  }
  return current
}

function groupByUpdatedAt(answers: AnsweredPatch[]): AnsweredPatch[][] {
  const groups = new Map<string, AnsweredPatch[]>()
  for (const answer of answers) {
    const group = groups.get(answer.result.updatedAt) ?? []
    group.push(answer)
    groups.set(answer.result.updatedAt, group)
  }
  // RFC 3339 UTC timestamps of one format sort as strings.
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, group]) => group)
}

/** The user with the patch applied, `updatedAt` left as it was (names here have no surrounding spaces). */
function applyPatch(user: User, patch: UserPatch): User {
  return { ...user, ...patch }
}

function sameFields(a: User, b: User): boolean {
  return sameUser({ ...a, updatedAt: '' }, { ...b, updatedAt: '' })
}

function sameUser(a: User, b: User): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof User>
  return [...keys].every((key) => a[key] === b[key])
}

function show(user: User): string {
  const { name, role, status, updatedAt } = user
  return JSON.stringify({ name, role, status, updatedAt })
}
