import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/** One request as the server saw it. */
export interface RecordedRequest {
  readonly method: string
  /** Raw path as sent, before any decoding (e.g. `/api/v1/orders/client-id/..%2Fping`). */
  readonly rawPath: string
  /** Decoded pathname. */
  readonly pathname: string
  readonly query: Record<string, string>
  readonly headers: IncomingMessage['headers']
}

/** What a handler answers. `hang: true` never answers; `destroy: true` resets the socket. */
export interface Reply {
  readonly status?: number
  readonly headers?: Record<string, string>
  /** A value to JSON-encode, or a raw string body. */
  readonly body?: unknown
  readonly raw?: string
  readonly hang?: boolean
  readonly destroy?: boolean
}

/** Decides the reply for a request; the default answers every path with `{code:0,data:null}`. */
export type Handler = (request: RecordedRequest) => Reply

/** A real HTTP server on 127.0.0.1, port 0, that records every request. */
export interface RecordingServer {
  readonly url: string
  readonly requests: RecordedRequest[]
  /** Replaces the handler. */
  handle(handler: Handler): void
  /** The last recorded request (throws when there is none). */
  last(): RecordedRequest
  close(): Promise<void>
}

/** Wraps `data` in the venue's success envelope. */
export function ok(data: unknown, meta: Record<string, unknown> = {}): Reply {
  return { status: 200, body: { code: 0, message: '', data, meta } }
}

/** An error envelope with the given HTTP status. */
export function fail(
  status: number,
  code: number,
  message: string,
  headers?: Record<string, string>,
): Reply {
  return { status, body: { code, message, data: null, meta: {} }, ...(headers ? { headers } : {}) }
}

/** Starts a {@link RecordingServer}. Close it in teardown. */
export async function startRecordingServer(
  handler: Handler = () => ok(null),
): Promise<RecordingServer> {
  let current = handler
  const requests: RecordedRequest[] = []
  const sockets = new Set<Socket>()
  const hanging = new Set<ServerResponse>()

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const rawPath = req.url ?? '/'
    const url = new URL(rawPath, 'http://127.0.0.1')
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      rawPath,
      pathname: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
    }
    requests.push(recorded)
    const reply = current(recorded)
    if (reply.hang) {
      hanging.add(res)
      return
    }
    if (reply.destroy) {
      req.socket.destroy()
      return
    }
    const body = reply.raw ?? JSON.stringify(reply.body ?? null)
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers })
    res.end(body)
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle: (next) => {
      current = next
    },
    last: () => {
      const request = requests.at(-1)
      if (request === undefined) throw new Error('no request was recorded')
      return request
    },
    close: async () => {
      for (const res of hanging) res.destroy()
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())))
    },
  }
}
