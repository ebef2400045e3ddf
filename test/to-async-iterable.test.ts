import { finalize, interval, map, Observable, of, Subject, take, throwError } from 'rxjs'
import { afterEach, describe, expect, it } from 'vitest'
import { toAsyncIterable, VenueInputError } from '../src/index.js'
import { runCleanups } from './helpers/cleanups.js'
import { FAST, startSimulatorVenue } from './helpers/simulator-venue.js'
import { waitFor } from './helpers/wait-for.js'

afterEach(() => runCleanups())

/** Everything a loop sees: the values, then how it ended. */
async function loop<T>(iterable: AsyncIterable<T>, stopAfter = Number.POSITIVE_INFINITY) {
  const values: T[] = []
  try {
    for await (const value of iterable) {
      values.push(value)
      if (values.length >= stopAfter) break
    }
    return { values, error: undefined }
  } catch (error) {
    return { values, error }
  }
}

describe('toAsyncIterable', () => {
  it('gives every value in order, then ends with the stream', async () => {
    expect(await loop(toAsyncIterable(of(1, 2, 3)))).toEqual({
      values: [1, 2, 3],
      error: undefined,
    })
  })

  it('subscribes only when the loop starts, and break unsubscribes', async () => {
    let subscribed = 0
    let finalized = 0
    const source = new Observable<number>((subscriber) => {
      subscribed += 1
      let n = 0
      const timer = setInterval(() => subscriber.next(n++), 1)
      return () => clearInterval(timer)
    }).pipe(finalize(() => (finalized += 1)))
    const iterable = toAsyncIterable(source)
    expect(subscribed).toBe(0)
    const { values } = await loop(iterable, 3)
    expect(values).toEqual([0, 1, 2])
    expect([subscribed, finalized]).toEqual([1, 1])
  })

  it('throws the stream error at the loop after the values before it, once', async () => {
    const boom = new Error('boom')
    const source = new Subject<number>()
    const iterator = toAsyncIterable(source)
    const first = iterator.next()
    source.next(1)
    source.next(2)
    source.error(boom)
    expect(await first).toEqual({ value: 1, done: false })
    expect(await iterator.next()).toEqual({ value: 2, done: false })
    await expect(iterator.next()).rejects.toBe(boom)
    expect(await iterator.next()).toEqual({ value: undefined, done: true })
    expect((await loop(toAsyncIterable(throwError(() => boom)))).error).toBe(boom)
  })

  it("overflow 'error': more values waiting than the buffer holds stops the stream and throws RangeError", async () => {
    const source = new Subject<number>()
    let unsubscribed = false
    const iterator = toAsyncIterable(source.pipe(finalize(() => (unsubscribed = true))), {
      buffer: 2,
    })
    const first = iterator.next()
    for (const n of [1, 2, 3, 4]) source.next(n)
    expect(await first).toEqual({ value: 1, done: false })
    // 2 and 3 fill the buffer; 4 overflows it.
    await expect(iterator.next()).rejects.toThrow(RangeError)
    expect(unsubscribed).toBe(true)
    expect(source.observed).toBe(false)
  })

  it("overflow 'drop-oldest': the loop gets the newest values the buffer holds", async () => {
    const source = new Subject<number>()
    const iterator = toAsyncIterable(source, { buffer: 3, overflow: 'drop-oldest' })
    const first = iterator.next()
    for (let n = 1; n <= 10; n += 1) source.next(n)
    source.complete()
    expect(await first).toEqual({ value: 1, done: false })
    expect((await loop(iterator)).values).toEqual([8, 9, 10])
  })

  it('a slow loop over a fast stream with drop-oldest keeps up and stops cleanly', async () => {
    let emitted = 0
    const source = interval(1).pipe(
      map((n) => {
        emitted = n + 1
        return n
      }),
      take(200),
    )
    const seen: number[] = []
    for await (const n of toAsyncIterable(source, { buffer: 1, overflow: 'drop-oldest' })) {
      seen.push(n)
      // Slower than the stream whatever the machine's load: on to the next value only once
      // the stream has emitted two more (or ended).
      await waitFor(() => emitted >= Math.min(n + 3, 200), 'two more values')
    }
    // Ascending, never repeated, ending with the last value; most were dropped.
    expect(seen.every((n, i) => i === 0 || n > (seen[i - 1] ?? -1))).toBe(true)
    expect(seen.at(-1)).toBe(199)
    expect(seen.length).toBeLessThan(200)
  })

  it.each([
    ['buffer', { buffer: 0 }],
    ['buffer', { buffer: 1.5 }],
    ['overflow', { overflow: 'drop-newest' }],
    ['options', null],
  ])('refuses a bad %s with VenueInputError at the call', (argument, options) => {
    let caught: unknown
    try {
      toAsyncIterable(of(1), options as never)
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(VenueInputError)
    expect((caught as VenueInputError).argument).toBe(argument)
  })

  /** The VenueInputError a call threw, failing the test when it threw none. */
  function refusal(call: () => unknown): VenueInputError {
    let caught: unknown
    try {
      call()
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(VenueInputError)
    return caught as VenueInputError
  }

  it.each([
    [
      'bufer',
      { bufer: 10 },
      'toAsyncIterable: unknown argument "bufer" (allowed: buffer, overflow)',
    ],
    ['overflowPolicy', { overflowPolicy: 'drop-oldest' }, 'unknown argument "overflowPolicy"'],
    ['buffer', { buffer: null }, 'toAsyncIterable: buffer must be a whole number, 1 or more'],
    ['overflow', { overflow: null }, "toAsyncIterable: overflow must be 'error' or 'drop-oldest'"],
    ['options', [], 'toAsyncIterable: options must be an object'],
    ['options', 'drop-oldest', 'toAsyncIterable: options must be an object'],
  ])('refuses option %s (%j) at the call, naming it: %s', (argument, options, message) => {
    const error = refusal(() => toAsyncIterable(of(1), options as never))
    expect(error.argument).toBe(argument)
    expect(error.message).toContain(message)
  })

  it.each([
    ['a promise', Promise.resolve(1)],
    ['an array', [1, 2]],
    ['an async iterable', (async function* () {})()],
    ['null', null],
    ['undefined', undefined],
    ['a function', () => of(1)],
    ['an object with subscribe alone', { subscribe: () => ({ unsubscribe() {} }) }],
  ])('refuses %s as the source at the call, not at the first loop step', (_, source) => {
    const error = refusal(() => toAsyncIterable(source as never))
    expect(error.argument).toBe('source')
    expect(error.message).toMatch(/^toAsyncIterable: source must be an Observable \(got /)
  })

  it('refuses arguments it does not take, and takes a trailing undefined', () => {
    const call = toAsyncIterable as (...args: unknown[]) => unknown
    const error = refusal(() => call(of(1), {}, { buffer: 10 }))
    expect(error.argument).toBe('arguments')
    expect(error.message).toBe('toAsyncIterable: takes a source and options, nothing more')
    expect(refusal(() => call(of(1), undefined, 1)).argument).toBe('arguments')
    expect(() => call(of(1), undefined, undefined)).not.toThrow()
  })

  it('a refused call subscribes to nothing', () => {
    let subscribed = 0
    const source = new Observable<number>(() => {
      subscribed += 1
    })
    refusal(() => toAsyncIterable(source, { bufer: 1 } as never))
    expect(subscribed).toBe(0)
  })

  it('takes any rxjs Observable: a Subject, a piped stream, options left out or undefined', async () => {
    expect(() => toAsyncIterable(new Subject<number>())).not.toThrow()
    expect(() => toAsyncIterable(of(1).pipe(map((n) => n + 1)), undefined)).not.toThrow()
    expect(
      await loop(toAsyncIterable(of(1, 2), { buffer: undefined, overflow: undefined })),
    ).toEqual({
      values: [1, 2],
      error: undefined,
    })
  })

  it('for await over venue.watchOrderBook: books from the simulator, and break stops the poller', async () => {
    const { sim, venue } = await startSimulatorVenue(FAST)
    const health: string[][] = []
    venue.health.subscribe((report) => health.push(Object.keys(report)))
    let books = 0
    for await (const book of toAsyncIterable(venue.watchOrderBook(0), {
      overflow: 'drop-oldest',
    })) {
      expect(book.bids.length).toBeGreaterThan(0)
      books += 1
      sim.advance(1)
      if (books === 3) break
    }
    expect(books).toBe(3)
    // The poller stops after its linger once the loop left: its health key goes.
    await waitFor(() => health.at(-1)?.length === 0, 'the book poller gone from health')
    expect(health.some((keys) => keys.length > 0)).toBe(true)
  })
})
