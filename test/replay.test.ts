import { afterEach, describe, expect, it } from 'vitest'
import { createVenue, VenueInputError, VenueJournalError } from '../src/index.js'
import { runCleanups } from './helpers/cleanups.js'
import { recordSession, replaySession, type SessionEvents } from './helpers/replay-session.js'

afterEach(runCleanups)

describe('replay: a bot gets exactly the events it got live', () => {
  let recorded: { file: string; live: SessionEvents } | undefined
  const session = async () => {
    recorded ??= await recordSession(2_500)
    return recorded
  }

  it('records a session in which every stream emitted', async () => {
    const { live } = await session()
    for (const [name, events] of Object.entries(live)) {
      expect(events.length, name).toBeGreaterThan(0)
    }
  }, 20_000)

  it.each([
    ['max', 'max'],
    ['max again', 'max'],
    ['max a third time', 'max'],
    ['20', 20],
    ['1', 1],
  ] as const)(
    'at speed %s: deep-equal to the live events',
    async (_, speed) => {
      const { file, live } = await session()
      expect(await replaySession(file, speed)).toEqual(live)
    },
    20_000,
  )
})

describe('replay: options', () => {
  it('checks replay.file and replay.speed', () => {
    const fail = (replay: unknown) => {
      try {
        createVenue({ replay } as never)
      } catch (error) {
        return error
      }
      return undefined
    }
    expect(fail({ file: '' })).toMatchObject({ name: 'VenueInputError', argument: 'replay.file' })
    expect(fail({ file: 'x', speed: 0 })).toMatchObject({ argument: 'replay.speed' })
    expect(fail({ file: 'x', speed: 'fast' })).toMatchObject({ argument: 'replay.speed' })
    expect(fail({ file: 'x', other: 1 })).toBeInstanceOf(VenueInputError)
    expect(fail({ file: '/nonexistent/session.journal' })).toBeInstanceOf(VenueJournalError)
  })
})

describe('replay: the end of the recording', () => {
  it('a REST call past the recorded answers rejects exhausted; an unseen one unseen-request; a stream with no answer left completes', async () => {
    const { mkdtempSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const { openJournalWriter } = await import('../src/replay/journal.js')
    const file = join(mkdtempSync(join(tmpdir(), 'venue-rx-replay-')), 'short.journal')
    const writer = await openJournalWriter(file, {
      baseUrl: 'http://127.0.0.1:1',
      startedAt: 1_000,
    })
    const pools = JSON.stringify({ code: 0, data: [] })
    for (const at of [1_000, 1_200]) {
      writer.append({
        type: 'response',
        request: '/api/v1/pools',
        sentAt: at,
        answeredAt: at + 5,
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: pools,
      })
    }
    await writer.close()
    const venue = createVenue({ replay: { file, speed: 'max' } })
    const order: string[] = []
    await new Promise<void>((resolve, reject) =>
      venue.watchPools().subscribe({
        next: () => order.push(`pools at ${venue.settings.replay?.speed}`),
        error: reject,
        complete: () => {
          order.push('complete')
          resolve()
        },
      }),
    )
    expect(order).toEqual(['pools at max', 'complete'])
    await expect(venue.rest.pools()).rejects.toMatchObject({
      name: 'VenueJournalError',
      problem: 'exhausted',
      request: '/api/v1/pools',
    })
    await expect(venue.rest.ping()).rejects.toMatchObject({
      name: 'VenueJournalError',
      problem: 'unseen-request',
      request: '/api/v1/ping',
      file,
    })
    await venue.close()
  })
})
