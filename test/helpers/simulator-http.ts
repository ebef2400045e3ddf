/** Plain HTTP requests to a running simulator, as a client without the library sends them. */
import { expect } from 'vitest'
import type { Simulator } from '../../src/simulator/index.js'

/** An answer of the simulator: the HTTP status and the envelope. */
export interface Answer<T> {
  readonly status: number
  readonly body: { code: number; message: string; data: T; meta: Record<string, unknown> }
}

/** `GET /api/v1{path}` with `key` (default the demo account's) as the Authorization header. */
export async function get<T>(sim: Simulator, path: string, key = sim.apiKey): Promise<Answer<T>> {
  const response = await fetch(`${sim.url}/api/v1${path}`, { headers: { authorization: key } })
  return { status: response.status, body: (await response.json()) as Answer<T>['body'] }
}

/** The `data` of a 200 answer to `GET /api/v1{path}` (fails the test on any other status). */
export async function data<T>(sim: Simulator, path: string, key = sim.apiKey): Promise<T> {
  const answer = await get<T>(sim, path, key)
  expect(answer.status, path).toBe(200)
  return answer.body.data
}
