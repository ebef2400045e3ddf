import { outputClosed } from './output.js'

/**
 * Resolves on the first SIGINT or SIGTERM. The handlers stay installed after it: until a
 * second signal, no other module's handler finds itself alone and re-raises the first one
 * (log-update's cursor restore does, through signal-exit), so the command ends cleanly; a
 * second signal ends the process at once, as an unhandled one would.
 */
export function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
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
  })
}

/**
 * Resolves on the first SIGINT or SIGTERM, or when stdout's reader went away (`| head`):
 * what ends a command that otherwise runs until Ctrl-C.
 */
export function untilStopped(): Promise<void> {
  return Promise.race([untilSignal(), outputClosed()])
}
