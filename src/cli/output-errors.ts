/**
 * A command's standard output is best effort: a reader that goes away (`| head`, a log shipper restarting)
 * or a full disk ends it, not the command, which would die of the write's unhandled 'error' and lose its
 * work and exit code. A failure other than the reader leaving is said once, on stderr. Call it before the
 * first line is written (Fastify logs its listening address).
 *
 * @example
 * carryOnWithoutOutput('mock')
 */
export function carryOnWithoutOutput(command: string): void {
  let said = false
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || said) return
    said = true
    console.error(
      `users-api-kit ${command}: cannot write to its output (${error.code ?? error.message}); it goes on without it.`,
    )
  })
}
