/**
 * A venue with `record: { file }`: every answer it receives is in the journal, in order,
 * as the simulator served it; failures too; never the API key.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { firstValueFrom, merge, type Subscription } from 'rxjs'
import { Agent, type Dispatcher } from 'undici'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createVenue, VenueInputError, VenueJournalError } from '../src/index.js'
import { type JournalAnswer, openJournalReader } from '../src/replay/journal.js'
import { onCleanup, runCleanups } from './helpers/cleanups.js'
import { rejectionOf } from './helpers/rejection.js'
import { FAST, startSimulatorVenue } from './helpers/simulator-venue.js'
import { waitFor, waitForAsync } from './helpers/wait-for.js'

let dir: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'venue-rx-record-'))
})

afterEach(async () => {
  await runCleanups()
  await rm(dir, { recursive: true, force: true })
})

/** The answers of a journal, read to its end or to where its writer has got. */
async function answersOf(file: string): Promise<JournalAnswer[]> {
  const answers: JournalAnswer[] = []
  try {
    for await (const answer of await openJournalReader(file)) answers.push(answer)
  } catch (error) {
    // A journal still open ends without the compressed stream's end: read up to it.
    if (!(error instanceof VenueJournalError && error.problem === 'truncated')) throw error
  }
  return answers
}

describe('createVenue({ record })', () => {
  it('journals every request the venue sent, in the order the simulator got them, each with what it served, failures too', async () => {
    const file = join(dir, 'session.journal')
    // Requests on the wire, and those that ended aborted (an abort is not an answer: it is
    // not journaled, though the simulator may have got the request).
    let inFlight = 0
    const aborted: string[] = []
    const agent = new Agent({ connections: 1 })
    onCleanup(() => agent.close())
    const counting = agent.compose(
      (dispatch: Dispatcher['dispatch']) =>
        (options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) => {
          inFlight += 1
          let ended = false
          const end = () => {
            if (!ended) inFlight -= 1
            ended = true
          }
          return dispatch(options, {
            onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
            onResponseStart: (controller, code, headers, message) =>
              handler.onResponseStart?.(controller, code, headers, message),
            onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
            onResponseEnd: (controller, trailers) => {
              end()
              handler.onResponseEnd?.(controller, trailers)
            },
            onResponseError: (controller, error) => {
              end()
              if (/abort/i.test(`${error.name} ${error.message}`)) {
                aborted.push(String(options.path).split('?')[0] ?? '')
              }
              handler.onResponseError?.(controller, error)
            },
          })
        },
    )
    const { sim, venue, hits } = await startSimulatorVenue({
      ...FAST,
      pacing: 'interval',
      // One socket: requests go one at a time, answered in the order they arrive.
      dispatcher: counting,
      // No poll left once the streams are gone.
      lingerMs: 1,
      // Generous: a request queued behind the one socket on a busy machine must not time
      // out before it is sent (the simulator would not have it, the journal would).
      requestTimeoutMs: 30_000,
      record: { file },
    })
    sim.faults.set({ errorRate: 0.15, rateLimitRate: 0.1, retryAfterSeconds: 0, resetRate: 0.1 })
    const streams: Subscription = merge(
      venue.watchDepth(0),
      venue.watchTrades(1),
      venue.watchMyTrades(),
      venue.watchBalances(),
      venue.watchPools(),
    ).subscribe({ error: () => {} })
    const faulted = (hit: { action: string }) => hit.action !== 'pass'
    await waitFor(
      () => hits.length >= 60 && hits.filter(faulted).length >= 6 && inFlight === 0,
      '60 requests, faults among them, none in flight',
    )
    streams.unsubscribe()
    await waitFor(() => inFlight === 0, 'no request on the wire')
    sim.faults.clear()
    // Paths no stream polls: a stream's aborted request is the last of its path.
    await venue.rest.ping()
    await venue.rest.tokens()
    await venue.rest.systemInfo()
    // Everything answered is journaled: all the simulator got but what was aborted.
    await waitForAsync(
      async () => (await answersOf(file)).length >= hits.length - aborted.length,
      'the journal to hold every request answered',
    )
    await venue.close()

    const journal = await answersOf(file)
    const pathOf = (request: string) => request.split('?')[0] ?? ''
    // Per path, in the order the simulator got them: the journal holds each request the
    // simulator got, but those aborted when the streams stopped (the last of their path).
    const hitsOf = new Map<string, (typeof hits)[number][]>()
    for (const hit of hits) hitsOf.set(hit.path, [...(hitsOf.get(hit.path) ?? []), hit])
    const count = (paths: readonly string[], path: string) =>
      paths.filter((one) => one === path).length
    const journaled = journal.map((answer) => pathOf(answer.request))
    for (const [path, got] of hitsOf) {
      const missing = got.length - count(journaled, path)
      expect(missing, path).toBeGreaterThanOrEqual(0)
      expect(missing, path).toBeLessThanOrEqual(count(aborted, path))
    }
    expect(new Set(journaled)).toEqual(new Set(hitsOf.keys()))
    expect(journal.length).toBeGreaterThanOrEqual(60)
    const reader = await openJournalReader(file)
    expect(reader.header.baseUrl).toBe(sim.url)
    await reader.close()
    for (const answer of journal) {
      const hit = hitsOf.get(pathOf(answer.request))?.shift() as (typeof hits)[number]
      if (hit.action === 'reset') {
        expect(answer.type, answer.request).toBe('failure')
        if (answer.type === 'failure') expect(answer.error.name).toBe('VenueNetworkError')
        continue
      }
      expect(answer.type, `${answer.request} (${hit.action})`).toBe('response')
      if (answer.type !== 'response') continue
      expect(answer.answeredAt).toBeGreaterThanOrEqual(answer.sentAt)
      if (hit.action === 'rateLimit') {
        expect(answer.status).toBe(429)
        expect(answer.headers['retry-after']).toBe('0')
      } else if (hit.action === 'error') {
        expect(answer.status).toBeGreaterThanOrEqual(500)
      } else {
        // The manual clock stands still: asked again, the simulator serves the same body.
        const again = await fetch(`${sim.url}${answer.request}`, {
          headers: { authorization: sim.apiKey },
        })
        expect(answer.status).toBe(again.status)
        expect(answer.body, answer.request).toBe(await again.text())
        expect(answer.headers['content-type']).toBe('application/json; charset=utf-8')
      }
    }
    expect(journal.some((answer) => answer.type === 'failure')).toBe(true)
    expect(journal.some((answer) => answer.type === 'response' && answer.status === 429)).toBe(true)

    // The key is in no byte of the file, compressed or not.
    const bytes = await readFile(file)
    const text = gunzipSync(bytes).toString('utf8')
    expect(text.includes(sim.apiKey)).toBe(false)
    expect(bytes.includes(sim.apiKey)).toBe(false)
    expect(text).not.toMatch(/authorization/i)
    // Compact: the file, ticks and all, is at most half the bytes of the answers' JSON.
    const answersJson = journal.reduce(
      (sum, answer) => sum + Buffer.byteLength(JSON.stringify(answer)),
      0,
    )
    expect(bytes.length).toBeLessThanOrEqual(answersJson / 2)
    expect(text).toMatch(/"t":\d+,"a":\d+/)
  }, 20_000)

  it('times the answers by the venue clock', async () => {
    const file = join(dir, 'clock.journal')
    let now = 1_000_000
    const clock = {
      now: () => now,
      schedule: () => ({ unsubscribe: () => {}, closed: false }) as unknown as Subscription,
    }
    const { venue } = await startSimulatorVenue({ record: { file }, scheduler: clock as never })
    now = 2_000_000
    await venue.rest.ping()
    await venue.close()
    const reader = await openJournalReader(file)
    expect(reader.header.startedAt).toBe(1_000_000)
    await reader.close()
    const [ping] = await answersOf(file)
    // The recording clock moves with what a replay sees again (timers firing, answers
    // coming): the ping went in the recording's first moment, and came at 2,000,000.
    expect(ping).toMatchObject({
      request: '/api/v1/ping',
      sentAt: 1_000_000,
      answeredAt: 2_000_000,
    })
  })

  it('fails the first request and close with VenueJournalError io when the journal cannot be created', async () => {
    const file = join(dir, 'no-such-dir', 'session.journal')
    const { sim } = await startSimulatorVenue()
    // Closed here, not by the cleanups: its close rejects.
    const venue = createVenue({ baseUrl: sim.url, apiKey: sim.apiKey, record: { file } })
    const failed = await rejectionOf(venue.rest.ping())
    expect(failed).toBeInstanceOf(VenueJournalError)
    expect(failed).toMatchObject({ problem: 'io', file })
    const streamed = await rejectionOf(firstValueFrom(venue.watchPools()))
    expect(streamed).toMatchObject({ problem: 'io', file })
    expect(await rejectionOf(venue.close())).toMatchObject({ problem: 'io', file })
  })

  it('refuses a record option that is not { file }, or goes with relay, naming it', () => {
    const baseUrl = 'http://127.0.0.1:1'
    const refused = (record: unknown, extra: object = {}) => {
      try {
        createVenue({ baseUrl, record: record as never, ...extra })
      } catch (error) {
        expect(error).toBeInstanceOf(VenueInputError)
        return (error as VenueInputError).argument
      }
      throw new Error('not refused')
    }
    expect(refused('session.journal')).toBe('record')
    expect(refused(null)).toBe('record')
    expect(refused({})).toBe('record.file')
    expect(refused({ file: '' })).toBe('record.file')
    expect(refused({ file: 5 })).toBe('record.file')
    expect(refused({ file: 'a', speed: 1 })).toBe('record.speed')
    expect(refused({ file: 'a' }, { relay: { redis: 'redis://127.0.0.1:6379' } })).toBe('record')
  })
})
