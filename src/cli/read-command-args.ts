import { didYouMean } from './did-you-mean.js'

/**
 * The start every command shares: its flags parsed, or the exit code when there is nothing more to do:
 * 0 after `--help` printed the usage, 2 after a bad flag (the message, and where to read more).
 *
 * @example
 * const options = readCommandArgs('verify', VERIFY_USAGE, parseVerifyArgs, args)
 * if (typeof options === 'number') return options
 */
export function readCommandArgs<T extends { help: boolean }>(
  command: string,
  usage: string,
  parse: (args: string[]) => T,
  args: string[],
): T | 0 | 2 {
  let options: T
  try {
    options = parse(args)
  } catch (error) {
    const message = (error as Error).message
    console.error(
      `users-api-kit ${command}: ${message}${suggestFlag(message, usage)}\nSee: users-api-kit ${command} --help`,
    )
    return 2
  }
  if (!options.help) return options
  console.log(usage)
  return 0
}

/** For node's "Unknown option '--prot'": the flag of the usage text closest to it. */
function suggestFlag(message: string, usage: string): string {
  const typed = /Unknown option '(--?[^']+)'/.exec(message)?.[1]
  if (typed === undefined) return ''
  const flags = [...new Set(usage.match(/--[a-z][a-z-]*/g) ?? [])]
  const suggestion = didYouMean(typed, flags)
  return suggestion === undefined ? '' : `${message.endsWith('.') ? '' : '.'} Did you mean ${suggestion}?`
}
