#!/usr/bin/env node
import { runMockCommand } from './mock-command.js'
import { runVerifyCommand } from './verify-command.js'
import { readVersion } from '../read-version.js'

const USAGE = `users-api-kit — mock, contract suite and fuzzer for the users API

Usage:
  users-api-kit mock [options]     Start the stateful mock server (see: users-api-kit mock --help)
  users-api-kit verify [options]   Run the contract suite against a backend (see: users-api-kit verify --help)
  users-api-kit --version

Docs: README.md, and /docs on a running mock.`

/** Each command resolves to its exit code, or to undefined while it keeps running (the mock). */
const COMMANDS: Record<string, (args: string[]) => Promise<number | undefined>> = {
  mock: runMockCommand,
  verify: runVerifyCommand,
}

async function main(argv: string[]): Promise<number | undefined> {
  const [command, ...args] = argv
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE)
    return 0
  }
  if (command === '--version' || command === '-v') {
    console.log(await readVersion())
    return 0
  }
  const run = COMMANDS[command]
  if (!run) {
    console.error(`users-api-kit: unknown command "${command}".\n\n${USAGE}`)
    return 2
  }
  return run(args)
}

const code = await main(process.argv.slice(2))
if (code !== undefined) process.exitCode = code
