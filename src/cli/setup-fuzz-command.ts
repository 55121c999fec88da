import { SCHEMATHESIS_VERSION, userVirtualenvDir } from '../fuzz/schemathesis-places.js'
import { setUpSchemathesis } from '../fuzz/set-up-schemathesis.js'
import { readCommandArgs } from './read-command-args.js'

const SETUP_FUZZ_USAGE = `users-api-kit setup-fuzz — install the Schemathesis that \`fuzz\` and \`gate\` run

Usage: users-api-kit setup-fuzz

Creates a private virtual environment with Schemathesis ${SCHEMATHESIS_VERSION} in your cache folder
($XDG_CACHE_HOME/users-api-kit, else ~/.cache/users-api-kit), with the first Python 3.10+ that can
make one (set PYTHON to choose). Works with Debian's and Ubuntu's externally managed Python. Run it
again at any time: it does nothing once Schemathesis is there.

  -h, --help   This help`

/** `users-api-kit setup-fuzz`: 0 once Schemathesis is ready (says where), 1 when it cannot be. */
export async function runSetupFuzzCommand(args: string[]): Promise<number> {
  const options = readCommandArgs('setup-fuzz', SETUP_FUZZ_USAGE, parseSetupFuzzArgs, args)
  if (typeof options === 'number') return options
  try {
    const folder = userVirtualenvDir(process.env)
    if (folder === undefined) {
      console.error(
        'users-api-kit setup-fuzz: no cache folder of your own to install into: set XDG_CACHE_HOME (or HOME) to an absolute path.',
      )
      return 1
    }
    const st = await setUpSchemathesis(folder)
    console.log(`Schemathesis ${SCHEMATHESIS_VERSION} is ready: ${st}\nusers-api-kit fuzz and gate use it from now on.`)
    return 0
  } catch (error) {
    console.error(`users-api-kit setup-fuzz: ${error instanceof Error ? error.message : String(error)}`)
    return 1
  }
}

function parseSetupFuzzArgs(args: string[]): { help: boolean } {
  const help = args.includes('--help') || args.includes('-h')
  const unknown = args.find((arg) => arg !== '--help' && arg !== '-h')
  if (unknown !== undefined) throw new Error(`Unknown option '${unknown}'`)
  return { help }
}
