import { unsupportedNodeMessage } from './supported-node.js'

// Every entry point of the package (users-api-kit, /fetch, /msw) imports this module first: on an older
// Node the import fails with one line naming the Node it needs, before a dependency fails on it in a
// stranger way or, worse, seems to work. A thrown error, not an exit: the importer (a test runner, a dev
// server) may catch it and carry on. The command says it and exits instead (src/cli/stop-on-an-older-node.ts).
const message = unsupportedNodeMessage(globalThis.process?.versions?.node)
if (message !== undefined) throw new Error(message)
