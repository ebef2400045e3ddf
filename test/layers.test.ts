import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { imports, localImports, SRC, sources } from './helpers/source-imports.js'

describe('layering', () => {
  it('finds the source files it checks', () => {
    expect(sources(SRC)).toContain('transport/undici-transport.ts')
    expect(imports('transport/undici-transport.ts')).toContain('undici')
  })

  it('imports undici only in the transport', () => {
    const offenders = sources(SRC).filter(
      (file) =>
        !file.startsWith('transport/') &&
        imports(file).some((s) => s === 'undici' || s.startsWith('undici/')),
    )
    expect(offenders).toEqual([])
  })

  it('keeps the client and the simulator apart', () => {
    const files = sources(SRC)
    const simulatorReachesOut = files
      .filter((file) => file.startsWith('simulator/'))
      .filter((file) =>
        imports(file).some(
          (s) => s.startsWith('.') && !join('src', file, '..', s).startsWith('src/simulator'),
        ),
      )
    // The CLI is the top layer: it joins the two.
    const clientReachesIn = files
      .filter((file) => !file.startsWith('simulator/') && !file.startsWith('cli/'))
      .filter((file) =>
        imports(file).some((s) => join('src', file, '..', s).startsWith('src/simulator')),
      )
    expect(simulatorReachesOut).toEqual([])
    expect(clientReachesIn).toEqual([])
  })
})

/**
 * The layers of the client, lowest first. A file may import its own layer and the layers
 * before it, never one after it; the simulator stands apart (only the CLI joins the two).
 * Within a layer, test/import-cycles.test.ts keeps the imports free of cycles.
 */
const LAYERS = [
  // What an argument check or an input error's wording asks of a value: below them all.
  ['plain-object', ['plain-object.ts']],
  ['errors', ['errors/']],
  // The number checks and the wording of an input error, shared by every layer above.
  ['checks', ['checks.ts']],
  ['decimal', ['decimal.ts']],
  ['timers', ['timers.ts']],
  ['api-key', ['api-key.ts']],
  ['schemas', ['schemas/']],
  ['transport', ['transport/']],
  ['rest', ['rest/']],
  ['core', ['core/']],
  ['book', ['book/']],
  ['streams', ['streams/']],
  ['signals', ['signals/']],
  // Redis: the connection, the key layout and the stream names every Redis part shares.
  ['redis', ['redis/']],
  ['shared-budget', ['shared-budget/']],
  ['relay-reader', ['relay-reader/']],
  // Record and replay: the journal, and the clock and transport a replaying venue runs on.
  ['replay', ['replay/']],
  ['venue', ['options.ts', 'venue-transport.ts', 'venue.ts']],
  // The relay publisher polls through a venue.
  ['relay-publisher', ['relay-publisher/']],
  ['index', ['index.ts', 'operators.ts', 'relay.ts']],
  ['cli', ['cli/']],
] as const satisfies readonly (readonly [string, readonly string[]])[]

function layerOf(file: string): number {
  const index = LAYERS.findIndex(([, places]) =>
    places.some((place) => (place.endsWith('/') ? file.startsWith(place) : file === place)),
  )
  if (index < 0) throw new Error(`${file} belongs to no layer: add it to LAYERS`)
  return index
}

describe('layers point one way', () => {
  const client = sources(SRC).filter((file) => !file.startsWith('simulator/'))

  it('every import goes to the same layer or a lower one', () => {
    const upward = client.flatMap((file) =>
      localImports(file)
        .filter((target) => !target.startsWith('simulator/'))
        .filter((target) => layerOf(target) > layerOf(file))
        .map((target) => `${file} -> ${target}`),
    )
    expect(upward).toEqual([])
  })

  it('the check catches a wrong arrow (rest importing the venue options)', () => {
    expect(layerOf('options.ts')).toBeGreaterThan(layerOf('rest/rest-client.ts'))
    expect(layerOf('streams/watch-depth.ts')).toBeGreaterThan(layerOf('rest/index.ts'))
  })

  it('outside rest/, only its public face rest/index.ts is imported', () => {
    const private_ = client
      .filter((file) => !file.startsWith('rest/'))
      .flatMap((file) =>
        localImports(file)
          .filter((target) => target.startsWith('rest/') && target !== 'rest/index.ts')
          .map((target) => `${file} -> ${target}`),
      )
    expect(private_).toEqual([])
  })

  it('the order book and the lower layers do not load rxjs (operators live in core and streams)', () => {
    const lower = client.filter(
      (file) => layerOf(file) <= layerOf('rest/index.ts') || file.startsWith('book/'),
    )
    expect(lower.filter((file) => imports(file).includes('rxjs'))).toEqual([])
  })
})

describe('filter names', () => {
  it('are the same in the client and in the simulator (kept apart, so checked here)', async () => {
    const { DEFAULT_PARAM_NAMES } = await import('../src/rest/param-names.js')
    const { PARAM_NAMES } = await import('../src/simulator/server/param-names.js')
    expect(JSON.parse(JSON.stringify(PARAM_NAMES))).toEqual(
      JSON.parse(JSON.stringify(DEFAULT_PARAM_NAMES)),
    )
  })

  it('kline intervals and their lengths are the same in the client and in the simulator', async () => {
    const client = await import('../src/rest/requests.js')
    const { KLINE_INTERVALS } = await import('../src/schemas/kline.js')
    const simulator = await import('../src/simulator/market/kline-intervals.js')
    expect([...KLINE_INTERVALS]).toEqual([...simulator.KLINE_INTERVALS])
    for (const [interval, seconds] of Object.entries(simulator.FIXED_SECONDS)) {
      expect(client.INTERVAL_SECONDS[interval as keyof typeof client.INTERVAL_SECONDS]).toBe(
        seconds,
      )
    }
    expect(Object.keys(simulator.FIXED_SECONDS)).toHaveLength(7)
  })
})
