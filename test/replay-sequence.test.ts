/**
 * The recording's clock, both ways: a recording venue's clock journals each timer that
 * fires (its number among the timers set, and when) and moves only with what a replay can
 * see again; a replay runs the journal's ticks and answers in their recorded order, each
 * at its recorded time, so the code reads the same `now()` it read live, however late a
 * timer fired then.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { asyncScheduler, interval, take, timer, VirtualTimeScheduler } from 'rxjs'
import { describe, expect, it, vi } from 'vitest'
import type { VenueJournalError } from '../src/errors/venue-journal-error.js'
import {
  type JournalAnswer,
  type JournalRecord,
  openJournalReader,
  openJournalWriter,
  readJournalHeader,
} from '../src/replay/journal.js'
import { recordingTransport } from '../src/replay/record.js'
import { RecordingClock } from '../src/replay/recording-clock.js'
import { ReplayClock } from '../src/replay/replay-clock.js'
import { replayTransport } from '../src/replay/replay-transport.js'
import type { Transport, TransportResponse } from '../src/transport/transport.js'

describe('RecordingClock', () => {
  it('journals each timer that fires by the order it was set, and moves only then or when told', () => {
    const inner = new VirtualTimeScheduler()
    inner.frame = 1_000
    const clock = new RecordingClock(inner)
    const records: JournalRecord[] = []
    const seen: number[] = []
    timer(100, clock).subscribe(() => seen.push(clock.now())) // timer 0
    timer(50, clock).subscribe(() => seen.push(clock.now())) // timer 1
    interval(30, clock)
      .pipe(take(3))
      .subscribe(() => seen.push(clock.now())) // timer 2, rescheduled in place
    clock.attach((record) => records.push(record))
    inner.flush()
    expect(records).toEqual([
      { type: 'tick', action: 2, at: 1_030 },
      { type: 'tick', action: 1, at: 1_050 },
      { type: 'tick', action: 2, at: 1_060 },
      { type: 'tick', action: 2, at: 1_090 },
      { type: 'tick', action: 0, at: 1_100 },
    ])
    expect(seen).toEqual([1_030, 1_050, 1_060, 1_090, 1_100])
    // Between events the clock stays where the last one left it; an answer moves it.
    inner.frame = 1_500
    expect(clock.now()).toBe(1_100)
    expect(clock.advance()).toBe(1_500)
    expect(clock.now()).toBe(1_500)
  })
})

describe('replay in the recorded order', () => {
  it('runs a timer at the time it fired live, not its due time, and settles an answer at its recorded time', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'venue-rx-sequence-')), 'late.journal')
    const writer = await openJournalWriter(file, {
      baseUrl: 'http://127.0.0.1:1',
      startedAt: 1_000,
    })
    // Live, the timer due at 1,100 fired 30 ms late; its request was answered at 1,170.
    writer.append({ type: 'tick', action: 0, at: 1_130 })
    const ping = JSON.stringify({ code: 0, data: { timestamp: 1 } })
    writer.append({
      type: 'response',
      request: '/api/v1/ping',
      sentAt: 1_130,
      answeredAt: 1_170,
      status: 200,
      headers: {},
      body: ping,
    })
    await writer.close()
    const clock = new ReplayClock(1_000, 'max')
    const transport = replayTransport(file, clock)
    const seen: string[] = []
    await new Promise<void>((resolve, reject) => {
      timer(100, clock).subscribe(() => {
        seen.push(`timer at ${clock.now()}`)
        transport
          .request({ path: '/api/v1/ping', headers: {}, timeoutMs: 1_000, endpoint: 'ping' })
          .then((response) => {
            seen.push(`answer at ${clock.now()}: ${response.body}`)
            resolve()
          }, reject)
      })
    })
    expect(seen).toEqual(['timer at 1130', `answer at 1170: ${ping}`])
    await transport.close()
  })

  it('leaves the recorded order when the replay does what the recording did not, and goes on by due time', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'venue-rx-sequence-')), 'other.journal')
    const writer = await openJournalWriter(file, {
      baseUrl: 'http://127.0.0.1:1',
      startedAt: 1_000,
    })
    // Live, timer 3 fired: this replay sets one timer only.
    writer.append({ type: 'tick', action: 3, at: 1_400 })
    await writer.close()
    const clock = new ReplayClock(1_000, 'max')
    const transport = replayTransport(file, clock)
    const at = await new Promise<number>((resolve) => {
      timer(100, clock).subscribe(() => resolve(clock.now()))
    })
    expect(at).toBe(1_100)
    await transport.close()
  })
})

describe('answers of one path that came the other way round', () => {
  /** A pool whose answers the test gives, in any order: `answer(i, body)` answers request i. */
  function heldPool() {
    const waiting: ((body: string) => void)[] = []
    const inner: Transport = {
      request: () =>
        new Promise<TransportResponse>((resolve) => {
          waiting.push((body) => resolve({ status: 200, headers: {}, body }))
        }),
      close: async () => undefined,
    }
    const answer = async (i: number, body: string) => {
      await vi.waitUntil(() => waiting.length > i)
      waiting[i]?.(body)
    }
    return { inner, answer }
  }
  const ask = (transport: Transport, signal?: AbortSignal) =>
    transport
      .request({ path: '/api/v1/ping', headers: {}, timeoutMs: 1_000, endpoint: 'ping', signal })
      .then((response) => response.body)

  async function answers(file: string) {
    const reader = await openJournalReader(file)
    const seen: JournalAnswer[] = []
    for await (const answer of reader) seen.push(answer)
    await reader.close()
    return seen
  }

  it('each request gets in the replay the answer it got live', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'venue-rx-sequence-')), 'crossed.journal')
    const { inner, answer } = heldPool()
    const clock = new RecordingClock(asyncScheduler)
    const recording = recordingTransport(inner, {
      file,
      baseUrl: 'http://127.0.0.1:1',
      clock,
      apiKey: undefined,
    })
    const first = ask(recording)
    const second = ask(recording)
    await answer(1, 'second')
    await second
    await answer(0, 'first')
    const live = [await first, await second]
    await recording.close()
    // The journal says whose the first answer was: the second waiting request's.
    expect(
      (await answers(file)).map((r) => ({ body: r.type === 'response' && r.body, nth: r.nth })),
    ).toEqual([
      { body: 'second', nth: 1 },
      { body: 'first', nth: undefined },
    ])

    const replay = replayTransport(file, new ReplayClock(readJournalHeader(file).startedAt, 'max'))
    expect(await Promise.all([ask(replay), ask(replay)])).toEqual(live)
    await replay.close()
  })

  it('a request aborted before its answer came is not journaled, and leaves the others their answers', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'venue-rx-sequence-')), 'aborted.journal')
    const { inner, answer } = heldPool()
    const recording = recordingTransport(inner, {
      file,
      baseUrl: 'http://127.0.0.1:1',
      clock: new RecordingClock(asyncScheduler),
      apiKey: undefined,
    })
    // The pool answers the aborted request anyway (its answer was on its way).
    const gone = new AbortController()
    const dropped = ask(recording, gone.signal)
    const kept = ask(recording)
    gone.abort()
    await answer(0, 'dropped')
    await answer(1, 'kept')
    expect([await dropped, await kept]).toEqual(['dropped', 'kept'])
    await recording.close()
    expect((await answers(file)).map((r) => r.type === 'response' && [r.body, r.nth])).toEqual([
      ['kept', undefined],
    ])

    const replay = replayTransport(file, new ReplayClock(readJournalHeader(file).startedAt, 'max'))
    const again = new AbortController()
    const aborted = ask(replay, again.signal)
    const answered = ask(replay)
    again.abort()
    await expect(aborted).rejects.toMatchObject({ name: 'VenueAbortError' })
    expect(await answered).toBe('kept')
    await replay.close()
  })
})

describe('a request the recording holds no answer for', () => {
  it('waits as the live one did until the recording ends, then is exhausted; one of a path never seen fails at once', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'venue-rx-sequence-')), 'ended.journal')
    const writer = await openJournalWriter(file, {
      baseUrl: 'http://127.0.0.1:1',
      startedAt: 1_000,
    })
    const answer = (request: string, answeredAt: number) =>
      writer.append({
        type: 'response',
        request,
        sentAt: 1_000,
        answeredAt,
        status: 200,
        headers: {},
        body: request,
      })
    // Live, the ping's answer led to a klines request of a new window, which the session's
    // stop aborted after the pools had answered: the journal has no answer for it.
    answer('/api/v1/klines?end=1', 1_005)
    answer('/api/v1/ping', 1_010)
    answer('/api/v1/pools', 1_020)
    await writer.close()
    const transport = replayTransport(file, new ReplayClock(1_000, 'max'))
    const order: string[] = []
    const ask = (path: string) =>
      transport.request({ path, headers: {}, timeoutMs: 1_000, endpoint: 'x' }).then(
        (response) => order.push(`answer ${response.body}`),
        (error: VenueJournalError) => order.push(`${error.problem} ${error.request}`),
      )
    const asked = [
      ask('/api/v1/klines?end=1'),
      ask('/api/v1/ping').then(() => ask('/api/v1/klines?end=2')),
      ask('/api/v1/pools'),
      ask('/api/v1/tokens'),
    ]
    await Promise.all(asked)
    expect(order).toEqual([
      'unseen-request /api/v1/tokens',
      'answer /api/v1/klines?end=1',
      'answer /api/v1/ping',
      'answer /api/v1/pools',
      'exhausted /api/v1/klines?end=2',
    ])
    await transport.close()
  })
})
