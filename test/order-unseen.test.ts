import { describe, expect, it } from 'vitest'
import {
  VenueNetworkError,
  VenueNotFoundError,
  VenueRejectedError,
  VenueServerError,
} from '../src/index.js'
import { isUnseen } from '../src/streams/order-unseen.js'

describe('isUnseen: the venue does not show the order', () => {
  it.each([
    ['a 404', new VenueNotFoundError('order: HTTP 404', { status: 404 }), true],
    [
      "the ambiguous 500 'service internal error'",
      new VenueServerError('order: HTTP 500', {
        status: 500,
        venueMessage: 'service internal error',
      }),
      true,
    ],
    ['another 500', new VenueServerError('order: HTTP 500', { status: 500 }), false],
    ['a 502', new VenueServerError('order: HTTP 502', { status: 502 }), false],
    ['a reset', new VenueNetworkError('order: reset', { causeCode: 'ECONNRESET' }), false],
    ['a refusal', new VenueRejectedError('order: HTTP 400', { status: 400 }), false],
    ['not a venue error', new Error('boom'), false],
    ['not an error', undefined, false],
  ])('%s', (_name, error, unseen) => {
    expect(isUnseen(error)).toBe(unseen)
  })
})
