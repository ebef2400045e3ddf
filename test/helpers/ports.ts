import type { AddressInfo } from 'node:net'
import { createServer } from 'node:net'

/**
 * A local port something listens on, for tests of a busy port; `release()` frees it.
 * Whoever connects is hung up on at once: a client of another test still retrying a port
 * that was closed and then handed out again here must not hold the release up (a server
 * closes only after its last connection ends).
 */
export async function heldPort(): Promise<{ readonly port: number; release(): Promise<void> }> {
  const server = createServer((socket) => socket.destroy())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { port, release: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}
