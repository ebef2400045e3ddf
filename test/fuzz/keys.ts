/**
 * API keys for the redaction properties, and the venue doubles that echo them: a raw TCP
 * server that writes malformed HTTP holding the key (undici's parser errors keep raw bytes).
 */
import { createServer, type Socket } from 'node:net'
import fc from 'fast-check'

const printable = fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code))

/**
 * Realistic keys: 12 to 200 printable ASCII characters, spaces inside but not at either
 * end (a key like `k-` + 36 letters and digits is typical).
 */
export const realisticKey: fc.Arbitrary<string> = fc.oneof(
  fc.stringMatching(/^k-[A-Za-z0-9]{36}$/),
  fc
    .string({ unit: printable, minLength: 12, maxLength: 200 })
    .filter((key) => key === key.trim() && key.length >= 12),
)

/**
 * The characters of the short keys: none of them occurs in venue-rx's own messages, so
 * any occurrence of such a key in a rendering can only come from a leaked value.
 */
export const SHORT_KEY_ALPHABET = ['~', '^', '|'] as const

/** Short keys: 1 to 11 characters of {@link SHORT_KEY_ALPHABET}. */
export const shortKey: fc.Arbitrary<string> = fc.string({
  unit: fc.constantFrom(...SHORT_KEY_ALPHABET),
  minLength: 1,
  maxLength: 11,
})

/** Ways a caller pastes the key where it does not belong: as is, or with text around it. */
export const DECORATIONS: readonly ((key: string) => string)[] = [
  (key) => key,
  (key) => `x${key}`,
  (key) => `${key}\n`,
  (key) => `../${key}`,
  (key) => `${key}/..`,
  (key) => ` ${key} `,
  (key) => `${key}${key}`,
  (key) => `${'y'.repeat(45)}${key}`,
]

/** One of {@link DECORATIONS}, by index (shrinks towards the key itself). */
export const decoration = fc.nat({ max: DECORATIONS.length - 1 })

/** Applies decoration `index` to `key`. */
export function decorate(key: string, index: number): string {
  return (DECORATIONS[index] ?? DECORATIONS[0] ?? ((k: string) => k))(key)
}

/** Malformed (and a few well-formed but odd) HTTP answers that echo `echo`. */
export const MALFORMED: Readonly<Record<string, (echo: string) => string>> = {
  'invalid status line': (echo) => `HTTP/1.1 ${echo}\r\n\r\n`,
  'key as the reason phrase': (echo) => `HTTP/1.1 500 ${echo}\r\ncontent-length: 0\r\n\r\n`,
  'control character in a header name': (echo) =>
    `HTTP/1.1 200 OK\r\nx-echo\u0001: ${echo}\r\ncontent-length: 2\r\n\r\n{}`,
  'control character in a header value': (echo) =>
    `HTTP/1.1 200 OK\r\nx-echo: ${echo}\u0001\r\ncontent-length: 2\r\n\r\n{}`,
  'header line without a colon': (echo) =>
    `HTTP/1.1 200 OK\r\n${echo}\r\ncontent-length: 2\r\n\r\n{}`,
  'key as content-length': (echo) => `HTTP/1.1 200 OK\r\ncontent-length: ${echo}\r\n\r\n{}`,
  'key as a chunk size': (echo) =>
    `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n${echo}\r\n{}\r\n0\r\n\r\n`,
  'not HTTP at all': (echo) => `${echo}\r\n\r\n`,
  'body cut short after the key': (echo) =>
    `HTTP/1.1 200 OK\r\ncontent-length: 1000\r\n\r\n{"code":0,"message":"${echo}`,
  'HTML error page with the key in a header and the body': (echo) => {
    const body = `<html><body>bad gateway for ${echo}</body></html>`
    return `HTTP/1.1 502 Bad Gateway\r\nx-echo: ${echo}\r\ncontent-type: text/html\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  },
}

/** A TCP server on 127.0.0.1 that answers every request with `respond(requestText)`, then closes. */
export interface RawServer {
  readonly url: string
  respond: (request: string) => string
  close(): Promise<void>
}

/** Starts a {@link RawServer}. */
export async function startRawServer(): Promise<RawServer> {
  const sockets = new Set<Socket>()
  const raw: RawServer = {
    url: '',
    respond: () => 'HTTP/1.1 204 No Content\r\n\r\n',
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => undefined)
    let text = ''
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1')
      if (!text.includes('\r\n\r\n')) return
      socket.end(raw.respond(text))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  return Object.assign(raw, { url: `http://127.0.0.1:${port}` })
}

/** The key as the venue received it (the authorization header), or `fallback`. */
export function receivedKey(request: string, fallback: string): string {
  return /\r\nauthorization: ([^\r\n]*)/i.exec(request)?.[1] ?? fallback
}
