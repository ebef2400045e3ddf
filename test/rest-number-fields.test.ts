/**
 * A number field (`taker_fee_rate`, `maker_fee_rate`, `max_flct`, `change_rate`) keeps
 * the documented promise (docs/rest.md): a value a double cannot hold, as the venue wrote it, is a
 * `VenueResponseError` naming its path, never a rounded number. The answers are served as
 * raw text by a real local HTTP server, so the numbers reach the client as the venue
 * wrote them.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createVenue, type Venue, VenueResponseError } from '../src/index.js'
import * as fixtures from './helpers/fixtures.js'
import { type RecordingServer, startRecordingServer } from './helpers/recording-server.js'
import { rejectionOf } from './helpers/rejection.js'

let server: RecordingServer
let venue: Venue
/** The body of every answer. */
let body = ''

beforeEach(async () => {
  server = await startRecordingServer(() => ({ status: 200, raw: body }))
  venue = createVenue({ baseUrl: server.url })
})

afterEach(async () => {
  await venue.close()
  await server.close()
})

/** An envelope around `data`, with the member `"key":"__n__"` written as the raw number `raw`. */
function serve(data: unknown, raw: string): void {
  const text = JSON.stringify({ code: 0, message: '', data, meta: {} })
  if (!text.includes('"__n__"')) throw new Error('no number to replace')
  body = text.replace('"__n__"', raw)
}

const detailWith = (field: string) => ({ ...fixtures.poolDetail, [field]: '__n__' })
const statsWith = (field: string) => ({
  ...fixtures.poolDetail,
  pool_stats: { ...fixtures.poolSummary, [field]: '__n__' },
})

async function schemaError(call: Promise<unknown>): Promise<VenueResponseError> {
  const error = await rejectionOf(call)
  expect(error).toBeInstanceOf(VenueResponseError)
  expect(error).toMatchObject({ problem: 'schema', retryable: false })
  return error as VenueResponseError
}

describe('rest.pool and rest.pools refuse a number a double would change', () => {
  it.each([
    ['taker_fee_rate', '9007199254740993'],
    ['taker_fee_rate', '0.10000000000000000001'],
    ['maker_fee_rate', '1e-400'],
    ['max_flct', '0.30000000000000000004'],
  ])('pool: %s sent as %s is a VenueResponseError naming the field', async (field, raw) => {
    serve(detailWith(field), raw)
    const error = await schemaError(venue.rest.pool(1))
    expect(error.issues[0]?.path).toEqual([field])
    expect(error.message).toContain(`at data["${field}"]`)
    expect(error.message).toContain('it would be rounded')
  })

  it('pool: pool_stats.change_rate sent as 0.10000000000000000001 is refused at its path', async () => {
    serve(statsWith('change_rate'), '0.10000000000000000001')
    const error = await schemaError(venue.rest.pool(1))
    expect(error.issues[0]?.path).toEqual(['pool_stats', 'change_rate'])
  })

  it('pools: change_rate sent as 9007199254740993 is refused at its path in the list', async () => {
    serve(
      [fixtures.poolSummary, { ...fixtures.poolSummary, change_rate: '__n__' }],
      '9007199254740993',
    )
    const error = await schemaError(venue.rest.pools())
    expect(error.issues[0]?.path).toEqual([1, 'change_rate'])
  })

  it('the same text sent quoted is refused too: the rule is the value, not the JSON type', async () => {
    serve(detailWith('taker_fee_rate'), '"9007199254740993"')
    const error = await schemaError(venue.rest.pool(1))
    expect(error.issues[0]?.path).toEqual(['taker_fee_rate'])
  })
})

describe('rest.pool and rest.pools keep taking numbers a double holds as written', () => {
  it.each([
    ['1e-4', 0.0001],
    ['0.0001', 0.0001],
    ['0.003', 0.003],
    ['0.00300', 0.003],
    ['3e-3', 0.003],
    ['"0.003"', 0.003],
    ['"1E-4"', 0.0001],
    ['9007199254740992', 9007199254740992],
  ])('pool: taker_fee_rate sent as %s is %d', async (raw, value) => {
    serve(detailWith('taker_fee_rate'), raw)
    expect((await venue.rest.pool(1)).taker_fee_rate).toBe(value)
  })

  it('pools: change_rate sent as -0.0195 is -0.0195', async () => {
    serve([{ ...fixtures.poolSummary, change_rate: '__n__' }], '-0.0195')
    expect((await venue.rest.pools())[0]?.change_rate).toBe(-0.0195)
  })

  it('pool: a decimal field keeps a number a double cannot hold, digit for digit', async () => {
    // Prices and amounts are exact decimal text: the rule of number fields is not theirs.
    serve({ ...fixtures.poolDetail, min_amount: '__n__' }, '0.10000000000000000001')
    expect((await venue.rest.pool(1)).min_amount).toBe('0.10000000000000000001')
  })
})

// Their cost (linear in the length) is measured in bench/long-numbers.ts, not here.
describe('long number texts in a number field', () => {
  const zeros = '0'.repeat(60_000)
  it.each([
    ['1.(60,000 zeros)1, refused', `1.${zeros}1`, undefined],
    ['1e-60000, refused', '1e-60000', undefined],
    ['0.(60,000 zeros)1e60001, which is exactly 1', `0.${zeros}1e60001`, 1],
  ])('pool: taker_fee_rate sent as %s', async (_, raw, value) => {
    serve(detailWith('taker_fee_rate'), raw)
    if (value === undefined) await schemaError(venue.rest.pool(1))
    else expect((await venue.rest.pool(1)).taker_fee_rate).toBe(value)
  })
})
