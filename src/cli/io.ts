/**
 * What a command reads and writes besides its arguments and files: the environment,
 * stdout and stderr, and what ends a command that runs until told to. `main` gives the
 * process's own ({@link processIo}); a command can also run with streams of its own, in a
 * process that does other things (the tests run most commands so).
 */

/** An output stream of a command: stdout or stderr, or a stream standing for one. */
export type CliOutput = NodeJS.WritableStream & {
  readonly isTTY?: boolean
  readonly columns?: number
  readonly rows?: number
}

export interface CliIo {
  readonly stdout: CliOutput
  readonly stderr: CliOutput
  readonly env: Readonly<Record<string, string | undefined>>
  /**
   * Resolves on the first request to stop (SIGINT or SIGTERM for a process). Asked only by
   * the commands that run until then: the others end as the signal's default does.
   */
  untilSignal(): Promise<void>
  /** Resolves when stdout can no longer be written (its reader went away: `| head`). */
  outputClosed(): Promise<void>
}

/**
 * Resolves on the first SIGINT or SIGTERM, or when stdout's reader went away (`| head`):
 * what ends a command that otherwise runs until Ctrl-C.
 */
export function untilStopped(io: CliIo): Promise<void> {
  return Promise.race([io.untilSignal(), io.outputClosed()])
}

/**
 * The process's own: its environment, stdout and stderr, and its signals.
 *
 * - A reader that stops early (`venue-rx demo | head`) closes the pipe, and the next write
 *   to stdout fails with EPIPE, which Node emits as an 'error' event: unhandled, it ends
 *   the process with a stack trace and exit code 1. Those events are taken here, and
 *   `outputClosed` resolves, so that a command running until Ctrl-C ends as `head`
 *   expects it to: quietly, with exit code 0. Any other write error is said on stderr and
 *   makes the exit code 1. A closed stderr leaves nowhere to say anything: its errors are
 *   dropped.
 * - `untilSignal` installs its handlers when asked, and they stay installed after the
 *   first signal: until a second one, no other module's handler finds itself alone and
 *   re-raises the first (log-update's cursor restore does, through signal-exit), so the
 *   command ends cleanly; a second signal ends the process at once, as an unhandled one
 *   would.
 */
export function processIo(): CliIo {
  let markClosed: () => void = () => undefined
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve
  })
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // EPIPE is a reader that has what it wanted; anything else is a real failure.
    if (error.code !== 'EPIPE') {
      process.stderr.write(`venue-rx: cannot write to stdout (${error.code ?? error.message})\n`)
      process.exitCode = 1
    }
    markClosed()
  })
  process.stderr.on('error', () => undefined)
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    untilSignal: () =>
      new Promise((resolve) => {
        let signalled = false
        const onSignal = (signal: NodeJS.Signals) => {
          if (!signalled) {
            signalled = true
            resolve()
            return
          }
          process.off('SIGINT', onSignal)
          process.off('SIGTERM', onSignal)
          process.kill(process.pid, signal)
        }
        process.on('SIGINT', onSignal)
        process.on('SIGTERM', onSignal)
      }),
    outputClosed: () => closed,
  }
}
