/**
 * The journal of a recorded session: every answer a venue received, in the order they
 * came, as a venue writes it with `record: { file }` and reads it back with
 * `replay: { file }`. This file fixes the shapes both sides share; the writer and the
 * reader are implemented below them.
 *
 * @packageDocumentation
 */

import * as fs from 'node:fs'
import * as fsPromises from 'node:fs/promises'
import { StringDecoder } from 'node:string_decoder'
import { promisify } from 'node:util'
import * as zlib from 'node:zlib'
import { VenueJournalError } from '../errors/venue-journal-error.js'

/** The journal format's version: a journal of another version is refused. */
export const JOURNAL_VERSION = 1

/** The first record of a journal: what was recorded, and when. */
export interface JournalHeader {
  readonly format: 'venue-rx-journal'
  readonly version: typeof JOURNAL_VERSION
  /** The venue's base URL (never its credentials). */
  readonly baseUrl: string
  /** When the recording started, by the recording venue's clock (epoch ms). */
  readonly startedAt: number
}

/** What one request got: an HTTP answer (any status), or a transport failure. */
export type JournalAnswer = JournalResponse | JournalFailure

/**
 * A timer of the recording venue's clock that fired: the `action`th timer set on the clock
 * (counted from 0 as they were set), and when it fired. With the answers, in the order
 * they happened, ticks let a replay run every timer and every answer in the recorded order
 * and at the recorded time, so a bot gets exactly the events it got live.
 */
export interface JournalTick {
  readonly type: 'tick'
  readonly action: number
  /** When it fired, by the venue's clock (epoch ms). */
  readonly at: number
}

/** One record after the header: an answer, or a tick of the clock. */
export type JournalRecord = JournalAnswer | JournalTick

interface JournalRequest {
  /** Path plus query string, as the transport sent it: `/api/v1/depth?pool_id=1`. */
  readonly request: string
  /** When the request was sent, by the venue's clock (epoch ms). */
  readonly sentAt: number
  /** When the answer (or the failure) came, by the venue's clock (epoch ms). */
  readonly answeredAt: number
  /**
   * Which of the requests of this path and query then waiting it answers, counted from 0
   * for the oldest; present only when it is not the oldest (two answers came the other way
   * round). Without it, the answer is the oldest waiting request's.
   */
  readonly nth?: number
}

/** An HTTP answer, body in full. */
export interface JournalResponse extends JournalRequest {
  readonly type: 'response'
  readonly status: number
  /** The response headers venue-rx reads (`retry-after`, `content-type`, ...). */
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** A request that got no answer: the transport's error, by class name, code and message. */
export interface JournalFailure extends JournalRequest {
  readonly type: 'failure'
  readonly error: {
    /** The venue-rx error class (`VenueTimeoutError`, `VenueNetworkError`, ...). */
    readonly name: string
    readonly message: string
    /** The network cause's code (`ECONNRESET`), when there was one. */
    readonly causeCode?: string
  }
}

/*
 * The file: gzip-compressed newline-delimited JSON. Line 1 is the header as above; each
 * later line is one answer, with short keys (the journal is read back by this file only):
 *   q: request, s: sentAt, d: answeredAt - sentAt, n: nth (absent when none),
 *   a response: c: status, h: headers (absent when none), b: body;
 *   a failure:  e: { n: name, m: message, k: causeCode (absent when none) }.
 * The deflate stream is flushed (Z_SYNC_FLUSH) after the answers of each moment, so that a
 * reader decodes every whole record of a file whose writer was killed.
 */

/** The response headers kept in a journal: the ones venue-rx reads of an answer. */
export const JOURNAL_HEADERS: readonly string[] = ['retry-after', 'content-type']

/**
 * Writes a journal as answers come ({@link openJournalWriter}).
 *
 * @example
 * ```ts
 * const writer = await openJournalWriter('session.journal', { baseUrl, startedAt: Date.now() })
 * writer.append({ type: 'response', request: '/api/v1/pools', sentAt, answeredAt, status: 200, headers: {}, body })
 * await writer.close()
 * ```
 */
export interface JournalWriter {
  /** Appends one record; written to the file as it goes (a crash loses at most the last answers). */
  append(record: JournalRecord): void
  /** Resolves once everything appended so far is written to the file. */
  flushed(): Promise<void>
  /** Writes what is left and closes the file (idempotent). */
  close(): Promise<void>
}

/**
 * Creates (or empties) `file` and writes the journal's header to it. Rejects with
 * {@link VenueJournalError} (`problem: 'io'`) when the file cannot be opened; a later
 * write error rejects `flushed()` and `close()` the same way.
 *
 * @example
 * ```ts
 * const writer = await openJournalWriter('session.journal', { baseUrl, startedAt: Date.now() })
 * writer.append(answer)
 * await writer.flushed() // on disk, even if the process is killed now
 * ```
 */
export async function openJournalWriter(
  file: string,
  header: { readonly baseUrl: string; readonly startedAt: number },
): Promise<JournalWriter> {
  let fd: number
  try {
    // A plain descriptor (a FileHandle would close it when collected): written synchronously.
    fd = await promisify(fs.open)(file, 'w')
  } catch (error) {
    throw ioError(file, 'cannot be created', error)
  }
  return new GzipJournalWriter(file, fd, {
    format: 'venue-rx-journal',
    version: JOURNAL_VERSION,
    baseUrl: header.baseUrl,
    startedAt: header.startedAt,
  })
}

class GzipJournalWriter implements JournalWriter {
  readonly #file: string
  #fd: number | undefined
  readonly #gzip: zlib.Gzip
  #flushing = false
  #failure: VenueJournalError | undefined
  #closing: Promise<void> | undefined

  constructor(file: string, fd: number, header: JournalHeader) {
    this.#file = file
    this.#fd = fd
    this.#gzip = zlib.createGzip()
    // Paused mode: the compressed bytes are written synchronously as they come out (a
    // process killed later has them in the file), by `readable` and after each flush.
    this.#gzip.on('readable', () => this.#drain())
    this.#gzip.on('error', (error) => this.#fail('cannot be compressed', error))
    this.#write(`${JSON.stringify(header)}\n`)
  }

  append(record: JournalRecord): void {
    if (this.#closing !== undefined) {
      throw new VenueJournalError(`journal ${this.#file}: append after close`, {
        problem: 'io',
        file: this.#file,
      })
    }
    this.#write(`${record.type === 'tick' ? encodeTick(record) : encodeAnswer(record)}\n`)
  }

  flushed(): Promise<void> {
    if (this.#closing !== undefined) return this.#closing
    return new Promise<void>((resolve, reject) => {
      this.#gzip.flush(zlib.constants.Z_SYNC_FLUSH, () => {
        this.#drain()
        if (this.#failure === undefined) resolve()
        else reject(this.#failure)
      })
    })
  }

  close(): Promise<void> {
    this.#closing ??= new Promise<void>((resolve, reject) => {
      const done = () => {
        this.#drain()
        this.#closeFile()
        if (this.#failure === undefined) resolve()
        else reject(this.#failure)
      }
      this.#gzip.once('end', done)
      this.#gzip.once('error', done)
      this.#gzip.end()
    })
    return this.#closing
  }

  #write(line: string): void {
    this.#gzip.write(line)
    // One flush for the answers of this moment: many answers in one turn, one flush.
    if (this.#flushing) return
    this.#flushing = true
    queueMicrotask(() => {
      this.#flushing = false
      if (this.#closing === undefined) this.#gzip.flush(zlib.constants.Z_SYNC_FLUSH)
    })
  }

  #drain(): void {
    for (let chunk = this.#gzip.read(); chunk !== null; chunk = this.#gzip.read()) {
      if (this.#fd === undefined || this.#failure !== undefined) continue
      try {
        fs.writeSync(this.#fd, chunk as Buffer)
      } catch (error) {
        this.#fail('cannot be written', error)
      }
    }
  }

  #fail(what: string, error: unknown): void {
    this.#failure ??= ioError(this.#file, what, error)
  }

  #closeFile(): void {
    if (this.#fd === undefined) return
    const fd = this.#fd
    this.#fd = undefined
    try {
      fs.closeSync(fd)
    } catch (error) {
      this.#fail('cannot be closed', error)
    }
  }
}

/** One tick as its journal line: `{"t":action,"a":at}`. */
function encodeTick(tick: JournalTick): string {
  return JSON.stringify({ t: tick.action, a: tick.at })
}

/** One answer as its journal line (without the newline). */
function encodeAnswer(answer: JournalAnswer): string {
  const at = {
    q: answer.request,
    s: answer.sentAt,
    d: answer.answeredAt - answer.sentAt,
    ...(answer.nth === undefined ? {} : { n: answer.nth }),
  }
  if (answer.type === 'failure') {
    const { name, message, causeCode } = answer.error
    return JSON.stringify({
      ...at,
      e: causeCode === undefined ? { n: name, m: message } : { n: name, m: message, k: causeCode },
    })
  }
  const headers = Object.keys(answer.headers).length === 0 ? {} : { h: answer.headers }
  return JSON.stringify({ ...at, c: answer.status, ...headers, b: answer.body })
}

/**
 * Reads a journal back ({@link openJournalReader}): its header, then its answers in the
 * order they came, one at a time.
 *
 * @example
 * ```ts
 * const reader = await openJournalReader('session.journal')
 * for await (const answer of reader) console.log(answer.request, answer.type)
 * ```
 */
export interface JournalReader extends AsyncIterable<JournalAnswer> {
  readonly header: JournalHeader
  /**
   * Every record in order, the clock's ticks with the answers (instead of iterating the
   * reader itself, which gives the answers only; one or the other, once).
   */
  records(): AsyncIterator<JournalRecord>
  /** Stops reading and closes the file (idempotent). */
  close(): Promise<void>
}

/**
 * Streams the answers in order, memory flat whatever the length; VenueJournalError
 * (problem, file, line) for a file that is not a journal, of another version, truncated,
 * or malformed.
 *
 * @example
 * ```ts
 * const reader = await openJournalReader('session.journal')
 * try {
 *   for await (const answer of reader) if (answer.type === 'failure') console.log(answer.error.name)
 * } finally {
 *   await reader.close()
 * }
 * ```
 */
export async function openJournalReader(file: string): Promise<JournalReader> {
  const lines = journalLines(file)
  const first = await lines.next()
  if (first.done === true) {
    throw new VenueJournalError(`journal ${file}: the file is empty, not a venue-rx journal`, {
      problem: 'not-a-journal',
      file,
      line: 1,
    })
  }
  let header: JournalHeader
  try {
    header = decodeHeader(file, first.value)
  } catch (error) {
    await lines.return(undefined)
    throw error
  }
  let iterating = false
  return {
    header,
    close: async () => {
      await lines.return(undefined)
    },
    records: () => {
      if (iterating) throw new Error(`journal ${file}: a reader is iterated once`)
      iterating = true
      return records(file, lines, true) as AsyncIterator<JournalRecord>
    },
    [Symbol.asyncIterator]: () => {
      if (iterating) throw new Error(`journal ${file}: a reader is iterated once`)
      iterating = true
      return records(file, lines, false) as AsyncIterator<JournalAnswer>
    },
  }
}

async function* records(
  file: string,
  lines: AsyncGenerator<string, undefined, undefined>,
  ticks: boolean,
): AsyncGenerator<JournalRecord, undefined, undefined> {
  let line = 1
  try {
    for await (const text of lines) {
      line += 1
      const record = decodeRecord(file, line, text)
      if (ticks || record.type !== 'tick') yield record
    }
  } finally {
    await lines.return(undefined)
  }
  return undefined
}

/**
 * The decompressed lines of `file`, one at a time (the file read as they are taken); an
 * end inside a record, or a compressed stream cut short, throws `truncated` naming the
 * incomplete record's line.
 */
async function* journalLines(file: string): AsyncGenerator<string, undefined, undefined> {
  let input: fs.ReadStream
  try {
    const handle = await fsPromises.open(file, 'r')
    input = handle.createReadStream()
  } catch (error) {
    throw ioError(file, 'cannot be opened', error)
  }
  const gunzip = zlib.createGunzip()
  const output = input.pipe(gunzip)
  input.on('error', (error) => gunzip.destroy(error))
  const decoder = new StringDecoder('utf8')
  let line = 1
  let partial = ''
  let decoded = false
  try {
    try {
      for await (const chunk of output) {
        decoded = true
        const text = partial + decoder.write(chunk as Buffer)
        let start = 0
        for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
          yield text.slice(start, end)
          line += 1
          start = end + 1
        }
        partial = text.slice(start)
      }
    } catch (error) {
      throw readError(file, line, decoded, error)
    }
    partial += decoder.end()
    if (partial !== '') {
      throw truncated(file, line, 'ends inside line')
    }
  } finally {
    input.destroy()
    gunzip.destroy()
  }
  return undefined
}

/** The error of a failed read at `line`: the file system's, or zlib's (not gzip, cut, corrupt). */
function readError(
  file: string,
  line: number,
  decoded: boolean,
  error: unknown,
): VenueJournalError {
  const code = (error as { code?: unknown } | null)?.code
  if (code === 'Z_BUF_ERROR') {
    // The compressed stream ends before its end: a recording cut short.
    if (!decoded && line === 1)
      return notAJournal(file, 'it is empty or not gzip-compressed', error)
    return truncated(file, line, 'is cut short at line', error)
  }
  if (typeof code === 'string' && code.startsWith('Z_')) {
    if (!decoded && line === 1) return notAJournal(file, 'it is not gzip-compressed', error)
    return new VenueJournalError(`journal ${file}: line ${line} is corrupt (${code})`, {
      problem: 'malformed',
      file,
      line,
      cause: error,
    })
  }
  return ioError(file, 'cannot be read', error, line)
}

function truncated(file: string, line: number, what: string, cause?: unknown): VenueJournalError {
  return new VenueJournalError(
    `journal ${file} ${what} ${line} (a recording cut short, or a copy that is not whole)`,
    { problem: 'truncated', file, line, ...(cause === undefined ? {} : { cause }) },
  )
}

function notAJournal(file: string, why: string, cause?: unknown): VenueJournalError {
  return new VenueJournalError(`journal ${file}: not a venue-rx journal (${why})`, {
    problem: 'not-a-journal',
    file,
    line: 1,
    ...(cause === undefined ? {} : { cause }),
  })
}

function ioError(file: string, what: string, cause: unknown, line?: number): VenueJournalError {
  const code = (cause as { code?: unknown } | null)?.code
  return new VenueJournalError(
    `journal ${file} ${what}${typeof code === 'string' ? ` (${code})` : ''}`,
    { problem: 'io', file, ...(line === undefined ? {} : { line }), cause },
  )
}

/** Line 1: the header, checked. */
function decodeHeader(file: string, text: string): JournalHeader {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw notAJournal(file, 'line 1 is not its header')
  }
  const header = value as Partial<Record<keyof JournalHeader, unknown>> | null
  if (typeof header !== 'object' || header === null || header.format !== 'venue-rx-journal') {
    throw notAJournal(file, 'line 1 is not its header')
  }
  if (header.version !== JOURNAL_VERSION) {
    const version = typeof header.version === 'number' ? header.version : 'unknown'
    throw new VenueJournalError(
      `journal ${file} is of format version ${version}; this venue-rx reads version ${JOURNAL_VERSION}`,
      { problem: 'version', file, line: 1 },
    )
  }
  if (typeof header.baseUrl !== 'string' || !isTime(header.startedAt)) {
    throw new VenueJournalError(`journal ${file}: line 1, the header, is malformed`, {
      problem: 'malformed',
      file,
      line: 1,
    })
  }
  return Object.freeze({
    format: 'venue-rx-journal',
    version: JOURNAL_VERSION,
    baseUrl: header.baseUrl,
    startedAt: header.startedAt,
  })
}

/** A later line: one answer or tick, checked. */
function decodeRecord(file: string, line: number, text: string): JournalRecord {
  const fail = (why: string) =>
    new VenueJournalError(`journal ${file}: line ${line} is malformed (${why})`, {
      problem: 'malformed',
      file,
      line,
    })
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw fail('not JSON')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw fail('not a record')
  const record = value as Record<string, unknown>
  if (record['t'] !== undefined) {
    const { t: action, a: at } = record
    if (typeof action !== 'number' || !Number.isSafeInteger(action) || action < 0) {
      throw fail('a tick without its timer')
    }
    if (!isTime(at)) throw fail('no time')
    return { type: 'tick', action, at }
  }
  const { q: request, s: sentAt, d: took } = record
  if (typeof request !== 'string' || !request.startsWith('/')) throw fail('no request')
  if (!isTime(sentAt) || !isTime(took)) throw fail('no time')
  const answeredAt = sentAt + took
  const { n: nth } = record
  if (nth !== undefined && (typeof nth !== 'number' || !Number.isSafeInteger(nth) || nth < 0)) {
    throw fail('a request number not a count')
  }
  const order = nth === undefined ? {} : { nth }
  if (record['e'] !== undefined) {
    const error = record['e'] as Record<string, unknown> | null
    if (typeof error !== 'object' || error === null) throw fail('a failure without an error')
    const { n: name, m: message, k: causeCode } = error
    if (typeof name !== 'string' || typeof message !== 'string')
      throw fail('a failure without an error')
    if (causeCode !== undefined && typeof causeCode !== 'string')
      throw fail('a cause code not text')
    return {
      type: 'failure',
      request,
      sentAt,
      answeredAt,
      ...order,
      error: causeCode === undefined ? { name, message } : { name, message, causeCode },
    }
  }
  const { c: status, h: headers = {}, b: body } = record
  if (typeof status !== 'number' || !Number.isInteger(status)) throw fail('no status')
  if (typeof body !== 'string') throw fail('no body')
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    throw fail('headers not an object')
  }
  for (const header of Object.values(headers)) {
    if (typeof header !== 'string') throw fail('a header not text')
  }
  return {
    type: 'response',
    request,
    sentAt,
    answeredAt,
    ...order,
    status,
    headers: headers as Record<string, string>,
    body,
  }
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value)
}

/**
 * What a journal holds, counted in one pass ({@link indexJournal}).
 *
 * @example
 * ```ts
 * const index = await indexJournal('session.journal')
 * console.log(index.answers, index.byRequest.get('/api/v1/pools'))
 * ```
 */
export interface JournalIndex {
  readonly header: JournalHeader
  readonly answers: number
  /** How many answers each request (path and query) has. */
  readonly byRequest: ReadonlyMap<string, number>
  readonly firstSentAt: number | undefined
  readonly lastAnsweredAt: number | undefined
}

/**
 * One streaming pass over the journal (memory: one entry per distinct request).
 *
 * @example
 * ```ts
 * const { answers, firstSentAt, lastAnsweredAt } = await indexJournal('session.journal')
 * console.log(`${answers} answers over ${(lastAnsweredAt ?? 0) - (firstSentAt ?? 0)} ms`)
 * ```
 */
export async function indexJournal(file: string): Promise<JournalIndex> {
  const reader = await openJournalReader(file)
  const byRequest = new Map<string, number>()
  let count = 0
  let firstSentAt: number | undefined
  let lastAnsweredAt: number | undefined
  try {
    for await (const answer of reader) {
      count += 1
      byRequest.set(answer.request, (byRequest.get(answer.request) ?? 0) + 1)
      if (firstSentAt === undefined || answer.sentAt < firstSentAt) firstSentAt = answer.sentAt
      if (lastAnsweredAt === undefined || answer.answeredAt > lastAnsweredAt) {
        lastAnsweredAt = answer.answeredAt
      }
    }
  } finally {
    await reader.close()
  }
  return { header: reader.header, answers: count, byRequest, firstSentAt, lastAnsweredAt }
}

/** How much of a file's start is read for its header, first and at most: a header is a few hundred bytes. */
const HEADER_READS = [1024, 64 * 1024]

/**
 * The header alone, read synchronously from the file's start (for createVenue, which is
 * synchronous).
 *
 * @example
 * ```ts
 * const { baseUrl, startedAt } = readJournalHeader('session.journal')
 * ```
 */
export function readJournalHeader(file: string): JournalHeader {
  for (const size of HEADER_READS) {
    const start = readStart(file, size)
    let text: string
    try {
      // A sync flush at the end: the start of a longer stream decodes as far as it goes.
      text = zlib
        .gunzipSync(start, { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: 1 << 26 })
        .toString('utf8')
    } catch (error) {
      throw notAJournal(file, 'it is empty or not gzip-compressed', error)
    }
    const end = text.indexOf('\n')
    if (end !== -1) return decodeHeader(file, text.slice(0, end))
    if (start.length < size) {
      // The whole file is read: no header, or one cut short.
      if (text === '') throw notAJournal(file, 'it holds no header')
      throw truncated(file, 1, 'ends inside line')
    }
  }
  throw notAJournal(file, 'no header line at its start')
}

function readStart(file: string, size: number): Buffer {
  try {
    const fd = fs.openSync(file, 'r')
    try {
      const buffer = Buffer.alloc(size)
      return buffer.subarray(0, fs.readSync(fd, buffer, 0, size, 0))
    } finally {
      fs.closeSync(fd)
    }
  } catch (error) {
    throw ioError(file, 'cannot be read', error)
  }
}
