import { afterEach, beforeEach } from 'vitest'
import { createVenue, type Venue, type VenueOptions } from '../../src/index.js'
import { dataFor } from './fixtures.js'
import { ok, type RecordingServer, startRecordingServer } from './recording-server.js'

/** An API key of the live form (`k-` and 36 letters and digits), for the REST tests. */
export const TEST_KEY = 'k-3fQ9xLr7TzW2mB8vKc5NhY1pJd6GsE4aU0Hq'

/** A recording server answering every endpoint with its fixture, and a venue on it. */
export interface RestVenue {
  readonly server: RecordingServer
  readonly venue: Venue
  /** Closes the server and the venue. */
  close(): Promise<void>
}

/**
 * Starts a {@link RestVenue}: the venue has {@link TEST_KEY} unless `options` says
 * otherwise.
 */
export async function startRestVenue(options: Partial<VenueOptions> = {}): Promise<RestVenue> {
  const server = await startRecordingServer((request) => ok(dataFor(request.pathname)))
  const venue = createVenue({ baseUrl: server.url, apiKey: TEST_KEY, ...options })
  return {
    server,
    venue,
    close: async () => {
      await server.close()
      await venue.close()
    },
  }
}

/** The server and venue of the test that is running. */
export interface CurrentRestVenue {
  readonly server: RecordingServer
  readonly venue: Venue
}

/**
 * Starts a fresh {@link RestVenue} before each test of the calling file and closes it after
 * the test. What it returns gives the server and venue of the test that is running.
 */
export function restVenuePerTest(options: Partial<VenueOptions> = {}): CurrentRestVenue {
  let current: RestVenue | undefined
  beforeEach(async () => {
    current = await startRestVenue(options)
  })
  afterEach(async () => {
    await current?.close()
    current = undefined
  })
  const started = (): RestVenue => {
    if (current === undefined) throw new Error('the REST venue exists only while a test runs')
    return current
  }
  return {
    get server() {
      return started().server
    },
    get venue() {
      return started().venue
    },
  }
}
