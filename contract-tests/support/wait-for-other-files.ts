import { OTHER_FILES_ENDED } from '../../src/contract/run/suite-config.js'

/**
 * Resolves once verify says every other file of the suite has ended (src/contract/run/run-suite.ts): a
 * file that runs in a thread of its own ends then, so that its thread runs nothing else. Listening from
 * the file's start: a message sent before anyone listens is lost.
 */
export function waitForOtherFiles(): Promise<void> {
  const channel = new BroadcastChannel(OTHER_FILES_ENDED)
  return new Promise((resolve) => {
    channel.onmessage = () => {
      channel.close()
      resolve()
    }
  })
}
