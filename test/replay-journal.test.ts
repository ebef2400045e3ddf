import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { VenueJournalError } from '../src/errors/venue-journal-error.js'
import {
  indexJournal,
  type JournalAnswer,
  type JournalFailure,
  openJournalReader,
  openJournalWriter,
  readJournalHeader,
} from '../src/replay/journal.js'
import { rejectionOf } from './helpers/rejection.js'

let dir: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'venue-rx-journal-'))
})

afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const BASE_URL = 'http://127.0.0.1:8787'

function response(n: number, body = `{"n":${n}}`): JournalAnswer {
  return {
    type: 'response',
    request: `/api/v1/depth?pool_id=${n % 3}`,
    sentAt: 1_700_000_000_000 + n * 100,
    answeredAt: 1_700_000_000_000 + n * 100 + 7,
    status: n % 5 === 4 ? 429 : 200,
    headers: n % 5 === 4 ? { 'retry-after': '2' } : { 'content-type': 'application/json' },
    body,
  }
}

function failure(n: number): JournalFailure {
  return {
    type: 'failure',
    request: `/api/v1/trades?pool_id=${n}`,
    sentAt: 1_700_000_000_000 + n * 100,
    answeredAt: 1_700_000_000_000 + n * 100 + 10_000,
    error: {
      name: 'VenueNetworkError',
      message: 'getTrades: network error (ECONNRESET)',
      causeCode: 'ECONNRESET',
    },
  }
}

/** The answers of `file`, and the error that ended the reading, if any. */
async function readAll(file: string): Promise<{ answers: JournalAnswer[]; error: unknown }> {
  const answers: JournalAnswer[] = []
  try {
    const reader = await openJournalReader(file)
    for await (const answer of reader) answers.push(answer)
    return { answers, error: undefined }
  } catch (error) {
    return { answers, error }
  }
}

async function writeJournal(file: string, answers: readonly JournalAnswer[]): Promise<void> {
  const writer = await openJournalWriter(file, { baseUrl: BASE_URL, startedAt: 1_700_000_000_000 })
  for (const answer of answers) writer.append(answer)
  await writer.close()
}

/** A gzip file of `lines`, each ended by a newline. */
async function gzipLines(file: string, lines: readonly string[]): Promise<void> {
  await writeFile(file, gzipSync(lines.map((line) => `${line}\n`).join('')))
}

const HEADER = JSON.stringify({
  format: 'venue-rx-journal',
  version: 1,
  baseUrl: BASE_URL,
  startedAt: 5,
})

function expectJournalError(error: unknown, problem: string, file: string, line: number): void {
  expect(error).toBeInstanceOf(VenueJournalError)
  const journalError = error as VenueJournalError
  expect({
    problem: journalError.problem,
    file: journalError.file,
    line: journalError.line,
  }).toEqual({ problem, file, line })
  expect(journalError.message).toContain(file)
  if (problem !== 'not-a-journal' && problem !== 'version') {
    expect(journalError.message).toContain(`line ${line}`)
  }
}

describe('the journal', () => {
  it('reads back the header and every answer, in order, as written', async () => {
    const file = join(dir, 'round.journal')
    const written = [
      response(0),
      failure(1),
      response(2, ''),
      response(3, '{"text":"é ü 中 \\n \\u2028"}'),
      response(4),
      { ...failure(5), error: { name: 'VenueTimeoutError', message: 'no answer within 10 ms' } },
      // Answers that name which of the waiting requests of their path they were for.
      { ...response(6), nth: 1 },
      { ...failure(7), nth: 2 },
    ] satisfies JournalAnswer[]
    await writeJournal(file, written)

    const reader = await openJournalReader(file)
    expect(reader.header).toEqual({
      format: 'venue-rx-journal',
      version: 1,
      baseUrl: BASE_URL,
      startedAt: 1_700_000_000_000,
    })
    const read: JournalAnswer[] = []
    for await (const answer of reader) read.push(answer)
    expect(read).toEqual(written)
    await reader.close()
    await reader.close()
    expect(readJournalHeader(file)).toEqual(reader.header)
  })

  it('indexes a journal in one pass: answers, answers by request, first and last times', async () => {
    const file = join(dir, 'index.journal')
    await writeJournal(file, [response(0), response(1), response(3), failure(2)])
    const index = await indexJournal(file)
    expect(index.answers).toBe(4)
    expect([...index.byRequest]).toEqual([
      ['/api/v1/depth?pool_id=0', 2],
      ['/api/v1/depth?pool_id=1', 1],
      ['/api/v1/trades?pool_id=2', 1],
    ])
    expect(index.firstSentAt).toBe(1_700_000_000_000)
    expect(index.lastAnsweredAt).toBe(1_700_000_000_000 + 200 + 10_000)
    expect(index.header.baseUrl).toBe(BASE_URL)
  })

  it('has every answer appended so far in the file once flushed, while it is still open', async () => {
    const file = join(dir, 'open.journal')
    const writer = await openJournalWriter(file, { baseUrl: BASE_URL, startedAt: 1 })
    writer.append(response(0))
    writer.append(failure(1))
    await writer.flushed()
    // The compressed stream is not ended: a reader has every record, then the cut.
    const { answers, error } = await readAll(file)
    expect(answers).toEqual([response(0), failure(1)])
    expectJournalError(error, 'truncated', file, 4)
    writer.append(response(2))
    await writer.close()
    await writer.close()
    expect((await readAll(file)).answers).toEqual([response(0), failure(1), response(2)])
    expect(() => writer.append(response(3))).toThrow(VenueJournalError)
  })

  it('reads a file cut at any byte of its last records up to the cut, then reports it truncated at the line it cuts', async () => {
    const file = join(dir, 'whole.journal')
    const answers = Array.from({ length: 12 }, (_, n) => (n % 4 === 1 ? failure(n) : response(n)))
    const writer = await openJournalWriter(file, { baseUrl: BASE_URL, startedAt: 1 })
    for (const answer of answers.slice(0, 10)) writer.append(answer)
    await writer.flushed()
    // Where the last two records start in the file.
    const lastStart = (await readFile(file)).length
    for (const answer of answers.slice(10)) writer.append(answer)
    await writer.close()
    const whole = await readFile(file)

    const cut = join(dir, 'cut.journal')
    const seen = new Set<number>()
    for (let size = lastStart; size < whole.length; size += 1) {
      await writeFile(cut, whole.subarray(0, size))
      const read = await readAll(cut)
      expect(read.answers.length, `cut at ${size}`).toBeGreaterThanOrEqual(10)
      expect(read.answers, `cut at ${size}`).toEqual(answers.slice(0, read.answers.length))
      // The header is line 1: the first record not read whole is line answers + 2.
      expectJournalError(read.error, 'truncated', cut, read.answers.length + 2)
      seen.add(read.answers.length)
    }
    // Cuts inside record 11, inside record 12, and after it (the compressed stream's end).
    expect([...seen]).toEqual([10, 11, 12])
    expect((await readAll(file)).error).toBeUndefined()
  })

  it('refuses a file that is not gzip-compressed, or not a journal, as not-a-journal at line 1', async () => {
    const cases: [string, Buffer][] = [
      ['empty', Buffer.alloc(0)],
      ['text', Buffer.from(`${HEADER}\n`)],
      ['gzip-text', gzipSync('hello\nworld\n')],
      ['gzip-json', gzipSync('{"format":"another","version":1}\n')],
      ['gzip-empty', gzipSync('')],
    ]
    for (const [name, bytes] of cases) {
      const file = join(dir, `${name}.journal`)
      await writeFile(file, bytes)
      const read = await readAll(file)
      expect(read.answers, name).toEqual([])
      expectJournalError(read.error, 'not-a-journal', file, 1)
      expect(() => readJournalHeader(file), name).toThrow(VenueJournalError)
      try {
        readJournalHeader(file)
      } catch (error) {
        expectJournalError(error, 'not-a-journal', file, 1)
      }
      expectJournalError(await rejectionOf(indexJournal(file)), 'not-a-journal', file, 1)
    }
  })

  it('refuses a journal of format version 2 at line 1, naming the version', async () => {
    const file = join(dir, 'v2.journal')
    const header = { format: 'venue-rx-journal', version: 2, baseUrl: BASE_URL, startedAt: 5 }
    await gzipLines(file, [JSON.stringify(header), '{"q":"/x","s":1,"d":1,"c":200,"b":""}'])
    const error = await rejectionOf(openJournalReader(file))
    expectJournalError(error, 'version', file, 1)
    expect((error as Error).message).toContain('version 2')
    expect(() => readJournalHeader(file)).toThrow(/version 2/)
  })

  it('reads the records before a malformed line, then reports it malformed at its line', async () => {
    const good = '{"q":"/api/v1/pools","s":10,"d":2,"c":200,"b":"[]"}'
    const malformed: [string, string][] = [
      ['not JSON', '{"q":"/api/v1/pools",'],
      ['no body', '{"q":"/api/v1/pools","s":10,"d":2,"c":200}'],
      ['no request', '{"s":10,"d":2,"c":200,"b":""}'],
      ['a bad time', '{"q":"/x","s":"10","d":2,"c":200,"b":""}'],
      ['a failure without its error', '{"q":"/x","s":10,"d":2,"e":{"m":"x"}}'],
      ['a header not text', '{"q":"/x","s":10,"d":2,"c":200,"h":{"retry-after":2},"b":""}'],
      ['a waiting request by a negative number', '{"q":"/x","s":10,"d":2,"n":-1,"c":200,"b":""}'],
      ['a waiting request by text', '{"q":"/x","s":10,"d":2,"n":"1","c":200,"b":""}'],
      ['an array', '[1,2]'],
    ]
    for (const [name, line] of malformed) {
      const file = join(dir, 'malformed.journal')
      await gzipLines(file, [HEADER, good, good, line, good])
      const read = await readAll(file)
      expect(read.answers.length, name).toBe(2)
      expectJournalError(read.error, 'malformed', file, 4)
    }
  })

  it('streams a long journal: the answers come one by one as the file is read, never all at once', async () => {
    // 20,000 records, then a malformed line: a reader that read ahead would fail first.
    const file = join(dir, 'long.journal')
    const count = 20_000
    const lines = [HEADER]
    for (let n = 0; n < count; n += 1) {
      lines.push(
        JSON.stringify({ q: `/api/v1/depth?pool_id=${n}`, s: n, d: 1, c: 200, b: `[${n}]` }),
      )
    }
    lines.push('not a record')
    await gzipLines(file, lines)

    const reader = await openJournalReader(file)
    const iterator = reader[Symbol.asyncIterator]()
    for (let n = 0; n < 3; n += 1) {
      const next = await iterator.next()
      expect(next.done).toBe(false)
      expect((next.value as JournalAnswer).request).toBe(`/api/v1/depth?pool_id=${n}`)
    }
    // Stopped early: the end of the file was never decoded.
    await reader.close()
    expect((await iterator.next()).done).toBe(true)

    const read = await readAll(file)
    expect(read.answers.length).toBe(count)
    expect(read.answers.at(-1)?.request).toBe(`/api/v1/depth?pool_id=${count - 1}`)
    expectJournalError(read.error, 'malformed', file, count + 2)
  })

  it('reports a journal that cannot be created or read as io, naming the file', async () => {
    const missing = join(dir, 'no-such-dir', 'session.journal')
    const created = await rejectionOf(
      openJournalWriter(missing, { baseUrl: BASE_URL, startedAt: 1 }),
    )
    expect(created).toBeInstanceOf(VenueJournalError)
    expect((created as VenueJournalError).problem).toBe('io')
    expect((created as VenueJournalError).file).toBe(missing)
    expect((created as Error).message).toContain(missing)
    const read = await rejectionOf(openJournalReader(missing))
    expect((read as VenueJournalError).problem).toBe('io')
    expect(() => readJournalHeader(missing)).toThrow(VenueJournalError)
  })
})
