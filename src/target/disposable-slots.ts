/**
 * The contract suite's disposable users, shared out by slot so that test files running in parallel never
 * touch the same user: each file names its slots (contract-tests/support/suite.ts, needDisposable). Here,
 * outside the suite, because `gate` checks before a run that the target lists enough of them.
 */
export const DISPOSABLE_SLOTS = {
  deleteByAdmin: 0,
  deleteByOwner: 1,
  authentication: 2,
  update: 3,
  permissions: 4,
  isolation: 5,
  webhookUpdate: 6,
  webhookDelete: 7,
  deleteSuspended: 8,
  listsAsData: 9,
  listsAsDataDelete: 10,
} as const

/**
 * The slots of the files that run in a thread of their own beside the others (the webhook checks, suite-config's
 * waiting files): their users change while other files measure the list (lists-as-data), which reads them around
 * each measurement to tell their moves from a miscount. Those files take their users through these names only.
 */
export const SLOTS_OF_THE_WAITING_FILES = ['webhookUpdate', 'webhookDelete'] as const satisfies ReadonlyArray<
  keyof typeof DISPOSABLE_SLOTS
>

/** How many disposable users the suite needs (the first ones of the target's list); fuzz gets the rest. */
export const DISPOSABLE_USERS_NEEDED = Object.keys(DISPOSABLE_SLOTS).length
