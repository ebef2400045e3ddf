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
import { interval, take, timer, VirtualTimeScheduler } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { type JournalRecord, openJournalWriter } from '../src/replay/journal.js'
import { RecordingClock } from '../src/replay/recording-clock.js'
import { ReplayClock } from '../src/replay/replay-clock.js'
import { replayTransport } from '../src/replay/replay-transport.js'

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
