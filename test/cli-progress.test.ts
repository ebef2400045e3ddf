/**
 * The export's progress line: the pure text (bar, percentage, rate, ETA) and when and how
 * it is written, on a terminal (redrawn through log-update) and elsewhere (plain lines),
 * with the time injected.
 */
import { stripVTControlCharacters } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { itemsToFetch } from '../src/cli/export-command.js'
import {
  BAR_WIDTH,
  ETA_AFTER_MS,
  etaSeconds,
  formatEta,
  itemRate,
  type ProgressStream,
  progressBar,
  progressLine,
  progressText,
} from '../src/cli/progress.js'
import { createVenue, type Venue, type VenueOptions } from '../src/index.js'
import { type Simulator, startSimulator } from '../src/simulator/index.js'
import { ok, type RecordingServer, startRecordingServer } from './helpers/recording-server.js'

const closing: { close(): Promise<void> }[] = []
afterAll(async () => {
  await Promise.all(closing.splice(0).map((c) => c.close()))
})

describe('progress text', () => {
  it('a bar of BAR_WIDTH cells, filled by the done share, clamped', () => {
    expect(BAR_WIDTH).toBe(20)
    expect(progressBar(0, 10)).toBe(`[${'░'.repeat(20)}]`)
    expect(progressBar(5, 10)).toBe(`[${'█'.repeat(10)}${'░'.repeat(10)}]`)
    expect(progressBar(9.99, 10)).toBe(`[${'█'.repeat(19)}░]`) // full only when done
    expect(progressBar(10, 10)).toBe(`[${'█'.repeat(20)}]`)
    expect(progressBar(15, 10)).toBe(`[${'█'.repeat(20)}]`)
    expect(progressBar(0, 0)).toBe(`[${'█'.repeat(20)}]`)
    expect(progressBar(1, 4, 8)).toBe('[██░░░░░░]')
  })

  it('rate: items per second of the elapsed time; 0 before any time passed', () => {
    expect(itemRate(450, 3750)).toBe(120)
    expect(itemRate(1, 4000)).toBe(0.25)
    expect(itemRate(5, 0)).toBe(0)
  })

  it('ETA: what is left at the present rate, in whole seconds up', () => {
    expect(etaSeconds(450, 1000, 3750)).toBeCloseTo(550 / 120)
    expect(etaSeconds(0, 1000, 3750)).toBeUndefined() // nothing came yet: no rate
    expect(ETA_AFTER_MS).toBe(1000)
    expect(etaSeconds(500, 1000, 999)).toBeUndefined() // the first moment's rate says little
    expect(etaSeconds(500, 1000, 1000)).toBe(1)
    expect(etaSeconds(0, 0, 0)).toBe(0)
    expect(etaSeconds(1200, 1000, 1000)).toBe(0)
    expect(formatEta(0)).toBe('0s')
    expect(formatEta(4.2)).toBe('5s')
    expect(formatEta(59)).toBe('59s')
    expect(formatEta(59.5)).toBe('1m 00s')
    expect(formatEta(125)).toBe('2m 05s')
    expect(formatEta(3599)).toBe('59m 59s')
    expect(formatEta(3725)).toBe('1h 02m')
    expect(formatEta(100 * 3600)).toBe('100h 00m')
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, -1]) expect(formatEta(bad)).toBe('--')
  })

  it('with a total: bar (on request), percent, items of total, rate, ETA, note', () => {
    const state = { items: 450, total: 1000, elapsedMs: 3750, note: 'backfilling' }
    expect(progressText(state, { bar: true })).toBe(
      `[${'█'.repeat(9)}${'░'.repeat(11)}] 45% 450/1000 items, 120/s, ETA 5s, backfilling`,
    )
    expect(progressText(state)).toBe('45% 450/1000 items, 120/s, ETA 5s, backfilling')
    expect(progressText({ items: 0, total: 1000, elapsedMs: 200 })).toBe(
      '0% 0/1000 items, 0/s, ETA --',
    )
    expect(progressText({ items: 30, total: 7200, elapsedMs: 60_000 })).toBe(
      '0% 30/7200 items, 1/s, ETA 3h 59m',
    )
    expect(progressText({ items: 0, total: 0, elapsedMs: 100 })).toBe('100% 0/0 items, 0/s, ETA 0s')
  })

  it('items that came after the count: the total shown grows with them, never past 100%', () => {
    expect(progressText({ items: 1005, total: 1000, elapsedMs: 1000 })).toBe(
      '100% 1005/1005 items, 1005/s, ETA 0s',
    )
  })

  it('without a total: items, rate, elapsed seconds, note', () => {
    expect(progressText({ items: 450, elapsedMs: 3750, note: 'caught up' })).toBe(
      '450 items, 120/s, 3.8 s, caught up',
    )
    expect(progressText({ items: 1, elapsedMs: 0 })).toBe('1 item, 0/s, 0.0 s')
  })
})

/** A stream that keeps what is written, a terminal or not, and a clock the test moves. */
function fixture(tty: boolean) {
  const chunks: string[] = []
  const stream = {
    isTTY: tty,
    columns: 120,
    rows: 30,
    write(chunk: string) {
      chunks.push(String(chunk))
      return true
    },
  } as unknown as ProgressStream
  let time = 1_000
  const progress = progressLine(stream, () => time)
  return {
    chunks,
    progress,
    at(ms: number) {
      time = 1_000 + ms
    },
  }
}

describe('progressLine', () => {
  it('elsewhere than a terminal: a plain line without bar at most once a second, then the final line', () => {
    const { chunks, progress, at } = fixture(false)
    progress.setTotal(100)
    at(10)
    progress.update(1, 'backfilling') // the first second: nothing yet
    at(999)
    progress.update(20, 'backfilling')
    expect(chunks).toEqual([])
    at(1000)
    progress.update(25, 'backfilling')
    at(1999)
    progress.update(40, 'backfilling')
    at(2000)
    progress.update(50, 'backfilling')
    progress.clear() // nothing shown in place: nothing to clear
    at(2500)
    progress.done(100, 'caught up, trades appended')
    expect(chunks).toEqual([
      '25% 25/100 items, 25/s, ETA 3s, backfilling\n',
      '50% 50/100 items, 25/s, ETA 2s, backfilling\n',
      '100 items, 40/s, 2.5 s, caught up, trades appended\n',
    ])
  })

  it('on a terminal: one line redrawn in place through log-update, at most 10 times a second', () => {
    const { chunks, progress, at } = fixture(true)
    progress.setTotal(200)
    at(50)
    progress.update(5)
    expect(chunks).toEqual([])
    at(100)
    progress.update(10, 'backfilling')
    expect(chunks).toHaveLength(1)
    const bar = (n: number) => `[${'█'.repeat(n)}${'░'.repeat(20 - n)}]`
    expect(stripVTControlCharacters(chunks[0] ?? '')).toBe(
      `${bar(1)} 5% 10/200 items, 100/s, ETA --, backfilling\n`,
    )
    at(150)
    progress.update(15, 'backfilling') // too soon: not drawn
    expect(chunks).toHaveLength(1)
    at(1000)
    progress.update(100, 'backfilling')
    expect(chunks).toHaveLength(2)
    // The redraw erases the line shown before (ESC [2K) and writes the new one.
    expect(chunks[1]).toContain('\u001B[2K')
    expect(stripVTControlCharacters(chunks[1] ?? '')).toBe(
      `${bar(10)} 50% 100/200 items, 100/s, ETA 1s, backfilling\n`,
    )
    progress.clear() // before a notice: the line erased
    expect(chunks).toHaveLength(3)
    expect(stripVTControlCharacters(chunks[2] ?? '')).toBe('')
    at(2000)
    progress.done(200, 'caught up, trades appended')
    expect(stripVTControlCharacters(chunks.slice(3).join(''))).toBe(
      '200 items, 100/s, 2.0 s, caught up, trades appended\n',
    )
  })

  it('begin: the clock starts again when the feed starts (the connection and the count left out)', () => {
    const { chunks, progress, at } = fixture(false)
    at(5000)
    progress.begin()
    at(5999)
    progress.update(10)
    expect(chunks).toEqual([])
    at(6000)
    progress.update(10)
    at(7000)
    progress.done(30, 'caught up')
    expect(chunks).toEqual(['10 items, 10/s, 1.0 s\n', '30 items, 15/s, 2.0 s, caught up\n'])
  })

  it('on a terminal, without a total (fills, or following): items, rate and time, no bar', () => {
    const { chunks, progress, at } = fixture(true)
    at(500)
    progress.update(50, 'backfilling')
    expect(stripVTControlCharacters(chunks.join(''))).toBe('50 items, 100/s, 0.5 s, backfilling\n')
    progress.setTotal(80)
    at(1000)
    progress.update(60)
    expect(stripVTControlCharacters(chunks.at(-1) ?? '')).toContain('75% 60/80 items')
    progress.setTotal(undefined)
    at(1500)
    progress.update(80, 'caught up, following')
    expect(stripVTControlCharacters(chunks.at(-1) ?? '')).toBe(
      '80 items, 53/s, 1.5 s, caught up, following\n',
    )
  })
})

describe('itemsToFetch: the total of the export, from the venue, only when exact', () => {
  async function setup(
    options: Pick<VenueOptions, 'paramNames'> = {},
  ): Promise<{ sim: Simulator; venue: Venue }> {
    const sim = await startSimulator({ seed: 3, clock: 'manual' })
    closing.push(sim)
    sim.advance(100)
    const venue = createVenue({ baseUrl: sim.url, apiKey: sim.apiKey, ...options })
    closing.push(venue)
    return { sim, venue }
  }

  it('trades and transfers: all of them without a cursor, those after it with one; fills: none', async () => {
    const { sim, venue } = await setup()
    const account = sim.market.account(sim.apiKey)
    const trades = account?.trades() ?? []
    const transfers = account?.transfers() ?? []
    expect(trades.length).toBeGreaterThan(10)
    expect(transfers.length).toBeGreaterThan(3)
    expect(await itemsToFetch(venue, 'trades', undefined)).toBe(trades.length)
    expect(await itemsToFetch(venue, 'trades', String(trades[9]?.global_seq))).toBe(
      trades.length - 10,
    )
    expect(await itemsToFetch(venue, 'trades', trades[9]?.global_seq)).toBe(trades.length - 10)
    expect(await itemsToFetch(venue, 'trades', String(trades.at(-1)?.global_seq))).toBe(0)
    expect(await itemsToFetch(venue, 'transfers', undefined)).toBe(transfers.length)
    expect(await itemsToFetch(venue, 'transfers', transfers[2]?.sid)).toBe(transfers.length - 3)
    expect(await itemsToFetch(venue, 'fills', undefined)).toBeUndefined()
  })

  it('a cursor filter the venue ignores (another wire name): no total, rather than a wrong one', async () => {
    const { sim, venue } = await setup({
      paramNames: { trades: { afterSeq: 'seq' }, transfers: { afterId: 'sid' } },
    })
    const account = sim.market.account(sim.apiKey)
    const trades = account?.trades() ?? []
    expect(await itemsToFetch(venue, 'trades', undefined)).toBe(trades.length)
    expect(await itemsToFetch(venue, 'trades', String(trades[9]?.global_seq))).toBeUndefined()
    const transfers = account?.transfers() ?? []
    expect(await itemsToFetch(venue, 'transfers', transfers[2]?.sid)).toBeUndefined()
  })

  it('a venue that filters but counts the whole list, or sends no count: no total', async () => {
    const { sim } = await setup()
    const trades = sim.market.account(sim.apiKey)?.trades() ?? []
    let meta: (matching: number) => Record<string, unknown> = () => ({ total: trades.length })
    const server: RecordingServer = await startRecordingServer(({ pathname, query }) => {
      if (pathname !== '/api/v1/trades') return ok(null)
      const after = Number(query['global_seq'] ?? -1)
      const matching = trades.filter((t) => t.global_seq > after)
      return ok(matching.slice(0, Number(query['limit'] ?? 50)), meta(matching.length))
    })
    closing.push(server)
    const venue = createVenue({ baseUrl: server.url, apiKey: sim.apiKey })
    closing.push(venue)
    const cursor = String(trades[9]?.global_seq)
    expect(await itemsToFetch(venue, 'trades', cursor)).toBeUndefined()
    meta = (matching) => ({ total: matching }) // the same server, counting right
    expect(await itemsToFetch(venue, 'trades', cursor)).toBe(trades.length - 10)
    for (const wrong of [{}, { total: '5' }, { total: -1 }, { total: 1.5 }]) {
      meta = () => wrong
      expect(await itemsToFetch(venue, 'trades', cursor)).toBeUndefined()
    }
    meta = () => ({ total: 0 }) // a count of 0 with an item in the page
    expect(await itemsToFetch(venue, 'trades', undefined)).toBeUndefined()
  })
})
