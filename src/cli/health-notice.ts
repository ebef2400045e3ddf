import type { Subscription } from 'rxjs'
import type { Venue } from '../venue.js'
import type { CliOutput } from './io.js'

/**
 * Streams heal themselves (transport trouble is retried for ever): this says so on
 * stderr, one line when the trouble starts and one when answers come again, so that a
 * silent terminal is never a mystery.
 */
export function healthNotices(
  venue: Venue,
  baseUrl: string,
  stderr: CliOutput,
  beforeLine: () => void = () => undefined,
): Subscription {
  let troubled = false
  return venue.health.subscribe((report) => {
    const retrying = Object.values(report).find((s) => s.state === 'retrying')
    if (retrying !== undefined && !troubled) {
      troubled = true
      beforeLine()
      stderr.write(
        `venue-rx: ${retrying.lastErrorMessage} (${retrying.lastErrorCode}); retrying: is the venue running at ${baseUrl}?\n`,
      )
    } else if (retrying === undefined && troubled) {
      troubled = false
      beforeLine()
      stderr.write('venue-rx: the venue answers again\n')
    }
  })
}
