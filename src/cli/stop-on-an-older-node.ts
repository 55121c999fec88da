import { unsupportedNodeMessage } from '../supported-node.js'

// The command's first import (main.ts; left out of the bundle, scripts/bundle-cli.ts), and the build's
// (scripts/generate-artifacts.ts): on an older Node it says in one line which Node it needs and exits 1,
// before anything else of the kit is evaluated.
const message = unsupportedNodeMessage(process.versions.node)
if (message !== undefined) {
  process.stderr.write(`${message}\n`)
  process.exit(1)
}
