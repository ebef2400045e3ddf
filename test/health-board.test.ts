/**
 * The health board's readers of a shared key (the subscriptions to one relayed stream):
 * the key leaves the report with the last of them, and a failed key stays.
 */
import { describe, expect, it } from 'vitest'
import { HealthBoard } from '../src/core/health.js'
import { VenueRelayError } from '../src/errors/venue-relay-error.js'

describe('HealthBoard readers', () => {
  it('keeps a key while any reader of it runs, and forgets it with the last', () => {
    const health = new HealthBoard()
    health.join('relay depth:0')
    health.join('relay depth:0')
    health.ok('relay depth:0')
    health.leave('relay depth:0')
    expect(health.current).toEqual({ 'relay depth:0': { state: 'ok' } })
    health.leave('relay depth:0')
    expect(health.current).toEqual({})
    // A new reader starts the count again.
    health.join('relay depth:0')
    health.ok('relay depth:0')
    health.leave('relay depth:0')
    expect(health.current).toEqual({})
  })

  it('keeps a failed key after its last reader left', () => {
    const health = new HealthBoard()
    health.join('relay fills')
    health.failed('relay fills', new VenueRelayError('trimmed', { retryable: false }))
    health.leave('relay fills')
    expect(health.current['relay fills']).toMatchObject({ state: 'failed' })
  })
})
