/**
 * What `venue-rx watch` and `venue-rx export` print and write, checked against the
 * simulator's ground truth and its REST answers: the commands run in this process with
 * streams of their own (two as child processes, for Ctrl-C), against simulators on a
 * manual clock started here, NDJSON output parsed. No sleeps: each run ends by itself (--count, caught up, done) or the test waits
 * for an output condition.
 */
import { existsSync, readFileSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { describe, expect, it } from 'vitest'
import { addDecimal, compareDecimal, createVenue, type Venue } from '../src/index.js'
import type { AccountView, Simulator, TradeDetailRecord } from '../src/simulator/index.js'
import {
  type CliOutcome,
  cliEnv,
  closedPort,
  type LiveCli,
  liveCli,
  runInProcess,
  startCli,
  waitForCli,
} from './helpers/cli.js'
import { cliFixture } from './helpers/cli-fixture.js'

const fixture = cliFixture('venue-rx-commands-')
const { children, venues } = fixture

/** A simulator on a manual clock with `ticks` of history, and its demo account. */
async function simulator(ticks = 50): Promise<{ sim: Simulator; account: AccountView }> {
  const sim = await fixture.simulator(ticks)
  const account = sim.market.account(sim.apiKey)
  if (account === undefined) throw new Error('no demo account')
  return { sim, account }
}

/** A REST client of `sim` with the demo account's key: the answers the CLI should print. */
function rest(sim: Simulator): Venue {
  const venue = createVenue({ baseUrl: sim.url, apiKey: sim.apiKey })
  venues.push(venue)
  return venue
}

/**
 * Runs the CLI with `args` (and `key` as VENUE_API_KEY) in this process, collecting its
 * output: what it prints is the test's subject here.
 */
function start(args: readonly string[], key?: string): LiveCli {
  return runInProcess(args, cliEnv(key))
}

/** The same as a child process: for what a process does (Ctrl-C). */
function startChild(args: readonly string[], key?: string): LiveCli {
  const child = startCli(args, cliEnv(key))
  children.push(child)
  return liveCli(child)
}

/** Runs the CLI to its end. */
function cli(args: readonly string[], key?: string): Promise<CliOutcome> {
  return start(args, key).exited
}

const lines = (text: string) => text.split('\n').filter((line) => line !== '')
const json = (text: string) => lines(text).map((line) => JSON.parse(line))

/** A price inside pool 0's spread, so a limit order there is the best of its side. */
function insideSpread(sim: Simulator): string {
  const book = sim.truth.engineBook(0)
  const bid = Number(book.bids[0]?.[0])
  const ask = Number(book.asks[0]?.[0])
  expect(ask - bid).toBeGreaterThan(0.0001)
  return (bid + 0.0001).toFixed(4)
}

/**
 * The fills of `account` the truth implies, worked out here from its trades (the demo
 * account's side of each, both sides of a self-trade, maker first), as `--json` prints them.
 */
function fillsOfTruth(account: AccountView, trades = account.trades()) {
  const me = account.info().chain_account
  return trades.flatMap((t: TradeDetailRecord) => {
    const fill = (role: 'maker' | 'taker') => {
      const maker = role === 'maker'
      const bought = maker ? !t.taker_is_bid : t.taker_is_bid
      return {
        globalSeq: String(t.global_seq),
        txId: t.tx_id,
        poolId: t.pool_id,
        orderId: String(maker ? t.maker_order_id : t.taker_order_id),
        clientId: maker ? t.maker_order_cid : t.taker_order_cid,
        price: t.price,
        quantity: t.base_quantity,
        quoteQuantity: t.quote_quantity,
        fee: maker ? t.maker_fee : t.taker_fee,
        // The fee comes off what the account receives: base when it bought.
        feeCoin: bought ? t.base_coin : t.quote_coin,
        role,
        side: bought ? 'buy' : 'sell',
        timestamp: t.timestamp * 1000,
      }
    }
    return [...(t.maker === me ? [fill('maker')] : []), ...(t.taker === me ? [fill('taker')] : [])]
  })
}

/** HH:MM:SS.mmm, UTC, as the tables show times. */
const clock = (ms: number) => new Date(ms).toISOString().slice(11, 23)

describe.concurrent('venue-rx watch: what it prints', () => {
  it('klines --json: the open candle as REST serves it, then that candle closed with its final values, then the next one; ends on SIGINT', async () => {
    const { sim } = await simulator(50)
    const venue = rest(sim)
    const klines = () => {
      const end = Math.floor(sim.market.now() / 1000)
      return venue.rest.klines({ poolId: 0, interval: '1m', start: end - 600, end })
    }
    const run = startChild(['watch', 'klines', '--json', '--poll-ms', '20', '--base-url', sim.url])
    await waitForCli(run, () => run.lines().length >= 1, 'the first candle')
    const before = await klines()
    sim.advance(200) // 50 s on: the next minute starts
    const after = await klines()
    const [closing, next] = after.slice(-2)
    const events = () => run.lines().map((line) => JSON.parse(line))
    await waitForCli(
      run,
      () => events().at(-1)?.candle.timestamp === next?.timestamp,
      'the next candle',
    )
    run.interrupt()
    const { code, err } = await run.exited
    expect(err).toBe('')
    expect(code).toBe(0)

    const [first, ...later] = events()
    expect(first).toEqual({ type: 'update', candle: before.at(-1) })
    expect(closing?.timestamp).toBe(first.candle.timestamp)
    expect(closing).not.toEqual(first.candle) // the candle moved on before it closed
    expect(next?.timestamp).toBe(first.candle.timestamp + 60_000)
    // A poll between the advance's ping and its klines may show the old candle's last
    // values as an update first; then it closes, once, and the next one opens.
    const shown = later.filter(
      (e) => !(e.type === 'update' && isDeepStrictEqual(e.candle, closing)),
    )
    expect(shown).toEqual([
      { type: 'closed', candle: closing },
      { type: 'update', candle: next },
    ])
    expect(later.length - shown.length).toBeLessThanOrEqual(1)
    expect(later.findIndex((e) => e.type === 'closed')).toBe(later.length - 2)
  })

  it('balances --json: every coin added as REST lists them, then only the lock of a placed order', async () => {
    const { sim } = await simulator(50)
    const venue = rest(sim)
    const run = start(
      ['watch', 'balances', '--json', '--count', '2', '--poll-ms', '20', '--base-url', sim.url],
      sim.apiKey,
    )
    await waitForCli(run, () => run.lines().length >= 1, 'the first balances')
    const before = await venue.rest.balances()
    await sim.placeOrder({
      poolId: 0,
      side: 'sell',
      type: 'limit',
      price: insideSpread(sim),
      amount: '10',
    })
    const { code, out, err } = await run.exited
    expect(err).toBe('')
    expect(code).toBe(0)
    const after = await venue.rest.balances()
    const [first, second] = json(out)
    expect(first.balances).toEqual(before)
    expect(first.changes).toEqual(before.map((b) => ({ type: 'added', coin: b.coin, current: b })))
    expect(second.balances).toEqual(after)
    const base = (list: typeof before) => list.find((b) => b.coin === 'chain.token-CHN')
    expect(second.changes).toEqual([
      { type: 'changed', coin: 'chain.token-CHN', previous: base(before), current: base(after) },
    ])
    expect(
      compareDecimal(addDecimal(base(before)?.locked ?? '', '10'), base(after)?.locked ?? ''),
    ).toBe(0)
  })

  it('fills --json: every fill of the truth in order, then a new fill as it happens', async () => {
    const { sim, account } = await simulator(100)
    const known = fillsOfTruth(account)
    expect(known.length).toBeGreaterThan(10)
    const count = known.length + 1
    const run = start(
      [
        'watch',
        'fills',
        '--json',
        '--count',
        String(count),
        '--poll-ms',
        '20',
        '--base-url',
        sim.url,
      ],
      sim.apiKey,
    )
    await waitForCli(run, () => run.lines().length >= known.length, 'the known fills')
    const ask = sim.truth.engineBook(0).asks[0]?.[0] ?? ''
    const placed = await sim.placeOrder({
      poolId: 0,
      side: 'buy',
      type: 'limit',
      price: ask,
      amount: '0.01',
    })
    const { code, out, err } = await run.exited
    expect(err).toBe('')
    expect(code).toBe(0)
    const fills = json(out)
    expect(fills).toEqual(fillsOfTruth(account).slice(0, count))
    expect(fills.at(-1)).toMatchObject({
      orderId: placed.id.split('-')[1],
      role: 'taker',
      side: 'buy',
    })
  })

  it('transfers --json and as a table: each transfer of the truth once, ascending sid', async () => {
    const { sim, account } = await simulator(100)
    const truth = account.transfers()
    expect(truth.length).toBeGreaterThan(3)
    const count = String(truth.length)
    const args = ['watch', 'transfers', '--count', count, '--base-url', sim.url]
    const [asJson, asTable] = await Promise.all([
      cli([...args, '--json'], sim.apiKey),
      cli(args, sim.apiKey),
    ])
    for (const { code, err } of [asJson, asTable]) expect([code, err]).toEqual([0, ''])
    expect(json(asJson.out)).toEqual(
      truth.map((t) => ({ ...t, created_at: Date.parse(t.created_at) })),
    )
    const [header, ...rows] = lines(asTable.out)
    expect(header?.trim().split(/\s+/)).toEqual(['sid', 'time', 'side', 'symbol', 'amount'])
    expect(rows.map((row) => row.trim().split(/\s+/))).toEqual(
      truth.map((t) => [t.sid, clock(Date.parse(t.created_at)), t.side, t.symbol, t.amount]),
    )
  })

  it('order ID --json and as text: a fill per trade of the other account, then done filled, then the end', async () => {
    const { sim, account } = await simulator(50)
    const price = insideSpread(sim)
    const placed = await sim.placeOrder({
      poolId: 0,
      side: 'sell',
      type: 'limit',
      price,
      amount: '0.02',
    })
    const args = ['watch', 'order', placed.id, '--poll-ms', '20', '--base-url', sim.url]
    const asJson = start([...args, '--json'], sim.apiKey)
    const asText = start(args, sim.apiKey)
    const other = sim.apiKeys[1] ?? ''
    const buy = () =>
      sim.placeOrder({
        account: other,
        poolId: 0,
        side: 'buy',
        type: 'limit',
        price,
        amount: '0.01',
      })
    await buy()
    await waitForCli(asJson, () => asJson.lines().length >= 1, 'the first fill')
    await buy()
    const [j, t] = await Promise.all([asJson.exited, asText.exited])
    for (const { code, err } of [j, t]) expect([code, err]).toEqual([0, ''])

    const [pool, orderId, side] = placed.id.split('-').map(Number)
    const truth = account.order(pool ?? -1, orderId ?? -1, side === 1 ? 1 : 0)
    expect(truth?.trades).toHaveLength(2)
    const events = json(j.out)
    expect(events.map((e) => e.type)).toEqual(['fill', 'fill', 'done'])
    expect(events.slice(0, 2).map((e) => e.fill)).toEqual(
      fillsOfTruth(account, truth?.trades).map((f) => expect.objectContaining(f)),
    )
    expect(events.map((e) => e.order.filled)).toEqual(['0.01', '0.02', '0.02'])
    const done = events[2]
    expect(done.status).toBe('filled')
    expect(done.order).toMatchObject({ id: placed.id, remaining: '0' })
    expect(compareDecimal(done.order.avgPrice, price)).toBe(0)

    // The text lines say the same as the JSON events.
    const state = (o: { filled: string; remaining: string; avgPrice: string }) =>
      `filled ${o.filled}, remaining ${o.remaining}, avg ${o.avgPrice}`
    expect(lines(t.out)).toEqual([
      ...events
        .slice(0, 2)
        .map(
          ({ fill: f, order: o }) =>
            `fill  ${placed.id}  sell ${f.quantity} @ ${f.price} (maker, fee ${f.fee}); ${state(o)}`,
        ),
      `done  ${placed.id}  filled; ${state(done.order)}`,
    ])
  })
})

describe.concurrent('venue-rx export: what it writes', () => {
  it('fills to NDJSON, twice with the market moving between: every fill of the truth once, the checkpoint at the last', async () => {
    const { sim, account } = await simulator(50)
    const out = join(fixture.dir(), 'fills.ndjson')
    const checkpoint = join(fixture.dir(), 'fills.cursor.json')
    const args = [
      'export',
      'fills',
      '--out',
      out,
      '--checkpoint',
      checkpoint,
      '--base-url',
      sim.url,
    ]
    const first = await cli(args, sim.apiKey)
    expect([first.code, first.out]).toEqual([0, ''])
    expect(lines(first.err).at(-1)).toMatch(
      /^\d+ items?, \d+\/s, [\d.]+ s, caught up, fills appended$/,
    )
    const afterFirst = json(await readFile(out, 'utf8'))
    expect(afterFirst).toEqual(fillsOfTruth(account))
    sim.advance(100) // a self-trade among the new trades: two fills of one trade
    const second = await cli(args, sim.apiKey)
    expect(second.code).toBe(0)

    const written = json(await readFile(out, 'utf8'))
    const truth = fillsOfTruth(account)
    expect(truth.length).toBeGreaterThan(afterFirst.length)
    expect(new Set(truth.map((f) => f.globalSeq)).size).toBeLessThan(truth.length)
    expect(written).toEqual(truth) // in order, none lost, none twice
    expect(written.slice(0, afterFirst.length)).toEqual(afterFirst)
    expect(JSON.parse(await readFile(checkpoint, 'utf8'))).toEqual({
      cursor: String(account.trades().at(-1)?.global_seq),
    })
  })

  it('fills to CSV: the header, then each fill of the truth in its columns', async () => {
    const { sim, account } = await simulator(100)
    const out = join(fixture.dir(), 'fills.csv')
    const checkpoint = join(fixture.dir(), 'fills-csv.cursor.json')
    const args = [
      'export',
      'fills',
      '--out',
      out,
      '--checkpoint',
      checkpoint,
      '--base-url',
      sim.url,
    ]
    expect((await cli(args, sim.apiKey)).code).toBe(0)
    const [header, ...rows] = lines(await readFile(out, 'utf8'))
    const columns = header?.split(',') ?? []
    expect(columns).toEqual([
      'globalSeq',
      'txId',
      'poolId',
      'orderId',
      'clientId',
      'price',
      'quantity',
      'quoteQuantity',
      'fee',
      'role',
      'side',
      'timestamp',
    ])
    const truth = fillsOfTruth(account)
    expect(rows.map((row) => row.split(','))).toEqual(
      truth.map((f) => columns.map((c) => String(f[c as keyof typeof f]))),
    )
  })

  it('trades --follow: the backlog, then new trades as the market moves, until SIGINT: exit 0, the checkpoint at the last trade', async () => {
    const { sim, account } = await simulator(50)
    const out = join(fixture.dir(), 'follow.ndjson')
    const checkpoint = join(fixture.dir(), 'follow.cursor.json')
    // The lines written so far: a line read while it is being written is left for later.
    const written = () => {
      const text = existsSync(out) ? readFileSync(out, 'utf8') : ''
      return json(text.slice(0, text.lastIndexOf('\n') + 1))
    }
    const run = startChild(
      [
        'export',
        'trades',
        '--follow',
        '--out',
        out,
        '--checkpoint',
        checkpoint,
        '--poll-ms',
        '20',
        '--base-url',
        sim.url,
      ],
      sim.apiKey,
    )
    const backlog = account.trades().length
    await waitForCli(run, () => written().length >= backlog, `${backlog} trades`)
    sim.advance(60)
    const truth = account.trades()
    expect(truth.length).toBeGreaterThan(backlog)
    await waitForCli(run, () => written().length >= truth.length, `${truth.length} trades`)
    // The checkpoint is saved after the line is written: wait for it, then interrupt.
    const last = String(truth.at(-1)?.global_seq)
    // (Each save leaves the file valid JSON, its last cursor key the newest.)
    const saved = () => existsSync(checkpoint) && JSON.parse(readFileSync(checkpoint, 'utf8'))
    await waitForCli(run, () => saved()?.cursor === last, 'the last cursor')
    run.interrupt()
    const { code, out: stdout, err } = await run.exited
    expect(code).toBe(0)
    expect(stdout).toBe('')
    expect(lines(err).at(-1)).toMatch(/^\d+ items?, \d+\/s, [\d.]+ s, interrupted$/)
    expect(written().map((t) => t.global_seq)).toEqual(truth.map((t) => String(t.global_seq)))
    expect(JSON.parse(await readFile(checkpoint, 'utf8'))).toEqual({ cursor: last })
  })
})

describe.concurrent('venue-rx: a runtime failure is one line with a hint, exit 1', () => {
  /** Exit 1, nothing on stdout, one line on stderr without a stack frame or `secret`. */
  function expectOneLine({ code, out, err }: CliOutcome, secret?: string): string {
    expect(code).toBe(1)
    expect(out).toBe('')
    expect(err).toMatch(/^venue-rx: [^\n]+\n$/)
    expect(err).not.toContain('    at ')
    if (secret !== undefined) expect(err).not.toContain(secret)
    return err
  }

  it('a wrong API key (VENUE_API_KEY=bad) for watch my-trades: the key not shown, the hint names VENUE_API_KEY', async () => {
    const { sim } = await simulator(0)
    const err = expectOneLine(
      await cli(['watch', 'my-trades', '--base-url', sim.url], 'bad'),
      'bad',
    )
    expect(err).toContain('the venue refused the API key')
    expect(err).toContain('check VENUE_API_KEY')
  })

  it('an unknown pool: watch book --pool 999 names the pools there are', async () => {
    const { sim } = await simulator(0)
    const err = expectOneLine(await cli(['watch', 'book', '--pool', '999', '--base-url', sim.url]))
    expect(err).toBe('venue-rx: unknown pool 999: the venue has pools 0, 1, 2\n')
  })

  it('a refused connection for export: the hint asks whether the venue runs there; nothing written', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`
    const out = join(fixture.dir(), 'refused.ndjson')
    const key = `k-${'Xy9'.repeat(12)}`
    const err = expectOneLine(
      await cli(
        ['export', 'trades', '--out', out, '--checkpoint', `${out}.json`, '--base-url', url],
        key,
      ),
      key,
    )
    expect(err).toContain('cannot reach the venue')
    expect(err).toContain(`is the venue running at ${url}?`)
    expect(existsSync(out)).toBe(false)
  })

  it('a checkpoint of another feed: the file named, the hint, nothing written', async () => {
    const { sim } = await simulator(20)
    const out = join(fixture.dir(), 'mixed.ndjson')
    const checkpoint = join(fixture.dir(), 'mixed.cursor.json')
    await writeFile(checkpoint, '{"cursor":"7/1"}') // a fills cursor: no transfer id
    const err = expectOneLine(
      await cli(
        ['export', 'transfers', '--out', out, '--checkpoint', checkpoint, '--base-url', sim.url],
        sim.apiKey,
      ),
    )
    expect(err).toContain(checkpoint)
    expect(err).toContain('give the checkpoint file this export wrote')
    expect(readFileSync(out, 'utf8')).toBe('')
  })

  it('watch order with a malformed id is a usage error (exit 2); an unknown pool in the id fails at once', async () => {
    const { sim } = await simulator(0)
    const [malformed, unknownPool] = await Promise.all([
      cli(['watch', 'order', 'abc', '--base-url', sim.url], sim.apiKey),
      cli(['watch', 'order', '9-1-1', '--base-url', sim.url], sim.apiKey),
    ])
    expect(malformed.code).toBe(2)
    expect(malformed.err).toMatch(
      /^venue-rx: watch order: "abc" is no order id: [^\n]+; see `venue-rx watch --help`\n$/,
    )
    expect(expectOneLine(unknownPool)).toBe(
      'venue-rx: unknown pool 9: the venue has pools 0, 1, 2\n',
    )
  })
})
