/**
 * The command's output going away. A reader that stops early (`venue-rx demo | head`)
 * closes the pipe, and the next write to stdout fails with EPIPE, which Node emits as an
 * 'error' event: unhandled, it ends the process with a stack trace and exit code 1.
 * {@link guardOutput} (once, in `main`) takes those events, and {@link outputClosed}
 * resolves, so that a command running until Ctrl-C ends as `head` expects it to: quietly,
 * with exit code 0.
 */

let markClosed: () => void = () => undefined
const closed = new Promise<void>((resolve) => {
  markClosed = resolve
})

/** Takes the write errors of stdout and stderr; see the module's comment. */
export function guardOutput(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // EPIPE is a reader that has what it wanted; anything else is a real failure.
    if (error.code !== 'EPIPE') {
      process.stderr.write(`venue-rx: cannot write to stdout (${error.code ?? error.message})\n`)
      process.exitCode = 1
    }
    markClosed()
  })
  // A closed stderr leaves nowhere to say anything: its errors are dropped.
  process.stderr.on('error', () => undefined)
}

/** Resolves when stdout can no longer be written (its reader went away). */
export function outputClosed(): Promise<void> {
  return closed
}
