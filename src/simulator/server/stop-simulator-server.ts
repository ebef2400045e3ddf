import type { Server } from 'node:http'

/**
 * Stops a simulator server: stops listening, destroys every connection (hanging and
 * delayed requests included) and resolves once the server has closed. Safe to call more
 * than once and on a server that never listened.
 *
 * @example
 * ```ts
 * await stopSimulatorServer(server)
 * ```
 */
export async function stopSimulatorServer(server: Server): Promise<void> {
  if (!server.listening) {
    server.closeAllConnections()
    return
  }
  const closed = new Promise<void>((resolve, reject) => {
    server.close((error) => (error === undefined ? resolve() : reject(error)))
  })
  server.closeAllConnections()
  await closed
}
