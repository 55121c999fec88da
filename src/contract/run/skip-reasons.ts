/**
 * What a skipped check's reason says about the run. A skip the user chose (`--read-only`, `--only core`,
 * `--grep`, a target with `"webhooks": false`) is marked with this prefix; every other skip is something
 * the target lacks (an actor, disposable users, data to check a rule on), which `verify --strict` and
 * `gate` do not pass.
 */
const CHOSEN_SKIP_PREFIX = 'by choice: '

/** Why the checks after the first failure did not run under `--bail`: neither a choice nor a lack. */
export const NOT_RUN_REASON = 'not run: --bail stopped the run at the first failed check'

/** Why the checks after `--run-timeout` did not run: the run fails for it. */
export const RUN_TIMEOUT_REASON = 'not run: the run passed its --run-timeout'

/** Why the checks after Ctrl-C did not run. */
export const INTERRUPTED_REASON = 'not run: verify was interrupted (Ctrl-C)'

/** Whether a skip reason says the check was never run (`--bail`, `--run-timeout`, Ctrl-C): counted apart. */
export function isNotRun(reason: string): boolean {
  return reason === NOT_RUN_REASON || reason === RUN_TIMEOUT_REASON || reason === INTERRUPTED_REASON
}

/**
 * A skip reason marked as the user's choice.
 *
 * @example
 * context.skip(chosenSkipReason('--read-only: this check writes')) // 'by choice: --read-only: this check writes'
 */
export function chosenSkipReason(reason: string): string {
  return `${CHOSEN_SKIP_PREFIX}${reason}`
}

export function isChosenSkip(reason: string): boolean {
  return reason.startsWith(CHOSEN_SKIP_PREFIX)
}

/** A skip reason as the summary prints it, under a heading that already says "by choice". */
export function withoutChoiceMark(reason: string): string {
  return isChosenSkip(reason) ? reason.slice(CHOSEN_SKIP_PREFIX.length) : reason
}
