import { afterAll, beforeAll, type TestContext } from 'vitest'
import { subscribeOnMock } from './subscribe-on-mock.js'
import { needActor, needWrites, skipByChoice, suite } from './suite.js'
import { waitForOtherFiles } from './wait-for-other-files.js'
import { inspectUser } from './webhook-steps.js'
import { WebhookReceiver } from './webhook-receiver.js'

/**
 * The webhook receiver of the test file that calls this at its top: started before its checks (and
 * subscribed on a mock that lets it, autoSubscribe), closed after them. Returns what each check calls
 * first: the receiver, or the check skipped, saying why (a choice, or what the target lacks).
 */
export function startReceiverForTheFile(): (context: TestContext) => WebhookReceiver {
  const settings = suite.target.webhooks
  let receiver: WebhookReceiver | undefined
  let unsubscribe: (() => Promise<void>) | undefined

  beforeAll(async () => {
    if (!settings || suite.layer === 'core' || suite.readOnly) return
    receiver = await WebhookReceiver.start(settings, inspectUser)
    if (settings.autoSubscribe) unsubscribe = await subscribeOnMock(receiver, settings)
  })

  // In a thread of its own, the file ends only once every other file has: its thread runs nothing else.
  const othersEnded = suite.ownThreadForWaitingFiles ? waitForOtherFiles() : Promise.resolve()

  afterAll(
    async () => {
      await othersEnded
      await unsubscribe?.()
      await receiver?.close()
    },
    // The others may take the whole run: this hook's limit is the run's deadline, not vitest's 30 s.
    Math.max(30_000, Math.min(2 ** 31 - 1, suite.runDeadline - Date.now() + 60_000)),
  )

  return (context) => {
    if (settings === false) skipByChoice(context, 'the target says "webhooks": false (the backend sends no webhooks)')
    if (!settings) {
      context.skip('the target names no webhook receiver ("webhooks" in the target file, see docs/contract-suite.md)')
    }
    needWrites(context)
    needActor(context, 'owner')
    return receiver as WebhookReceiver
  }
}
