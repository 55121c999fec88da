// Preloaded with `node --import`: appends the URL of every file module the process loads to the file
// named by RECORD_LOADED_MODULES, one a line, as it is loaded (the process may be killed at any time).
import { appendFileSync } from 'node:fs'
import { registerHooks } from 'node:module'

const file = process.env.RECORD_LOADED_MODULES
if (file) {
  registerHooks({
    load(url, context, nextLoad) {
      if (url.startsWith('file:')) appendFileSync(file, `${url}\n`)
      return nextLoad(url, context)
    },
  })
}
