/**
 * The relay session reducer as a table: events in, the state and the effects out, step by
 * step. No Redis, no clock: every answer and every timer is an event of the table.
 */
import { describe, expect, it } from 'vitest'
import {
  IDLE,
  type SessionEffect,
  type SessionEvent,
  type SessionLife,
  type SessionSettings,
  statusOf,
  stepSession,
} from '../src/relay-publisher/session-life.js'

/** leaseMs 500: ttl 375, a renewal every 125, a standby every 50, backoff 100 200 400 500. */
const SETTINGS: SessionSettings = { name: 'pools', leaseMs: 500 }

const redisDown = new Error('connect ECONNREFUSED')

/** An effect as a table states it. */
function shown(effect: SessionEffect): string {
  switch (effect.type) {
    case 'acquire':
      return `acquire ttl=${effect.ttlMs}`
    case 'wait':
      return `wait ${effect.ms}`
    case 'catch-up':
    case 'subscribe':
    case 'drain':
      return `${effect.type} ${effect.session}`
    case 'renew-after':
      return `renew-after ${effect.ms}`
    case 'renew':
      return `renew ttl=${effect.ttlMs} last='${effect.lastPublished}'`
    case 'count-published':
      return `count-published ${effect.added}`
    case 'count-failure':
      return `count-failure ${messageOf(effect.error)}`
    case 'report-retrying':
      return `report-retrying attempt=${effect.attempt} delay=${effect.delayMs} ${messageOf(effect.error)}`
    default:
      return effect.type
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** The state as a table states it: its kind and what `status()` says. */
function stateOf(life: SessionLife): string {
  return `${life.kind} (${statusOf(life)})`
}

/** Runs the events from `IDLE`: per step, the state after it and the effects, in order. */
function run(events: readonly SessionEvent[], settings = SETTINGS): [string, string[]][] {
  let life = IDLE
  return events.map((event) => {
    const step = stepSession(life, event, settings)
    life = step.life
    return [stateOf(life), step.effects.map(shown)]
  })
}

const start: SessionEvent = { type: 'start' }
const stop: SessionEvent = { type: 'stop' }
const held: SessionEvent = { type: 'lease-answered', held: true }
const refused: SessionEvent = { type: 'lease-answered', held: false }
const failed: SessionEvent = { type: 'lease-failed', error: redisDown }
const waitOver: SessionEvent = { type: 'wait-over' }
const caughtUp = (session = 1): SessionEvent => ({ type: 'caught-up', session })
const written = (last: string, added = 1, session = 1): SessionEvent => ({
  type: 'written',
  session,
  added,
  last,
})
const renewDue = (session = 1): SessionEvent => ({ type: 'renew-due', session })
const drained = (session = 1): SessionEvent => ({ type: 'drained', session })
/** Into a session: start, the lease taken, the takeover read. */
const publishing: SessionEvent[] = [start, held, caughtUp()]

interface Case {
  readonly name: string
  readonly events: readonly SessionEvent[]
  readonly out: [string, string[]][]
}

const CASES: Case[] = [
  {
    name: 'a standby: asks for the lease, is refused, asks again every tenth of leaseMs',
    events: [start, refused, waitOver, refused],
    out: [
      ['acquiring (standby)', ['acquire ttl=375']],
      ['waiting (standby)', ['report-ok', 'wait 50']],
      ['acquiring (standby)', ['acquire ttl=375']],
      ['waiting (standby)', ['report-ok', 'wait 50']],
    ],
  },
  {
    name: 'the lease taken: reads the takeover, then active: counted, renewal timer, subscribed',
    events: publishing,
    out: [
      ['acquiring (standby)', ['acquire ttl=375']],
      ['catching-up (standby)', ['report-ok', 'catch-up 1']],
      ['publishing (active)', ['count-acquired', 'renew-after 125', 'subscribe 1']],
    ],
  },
  {
    name: 'renews every quarter with the id of the last entry written; a renewal that holds changes nothing',
    events: [
      ...publishing,
      renewDue(),
      written('1-0', 2),
      written('', 0),
      renewDue(),
      { type: 'lease-renewed', session: 1 },
    ],
    out: [
      ['acquiring (standby)', ['acquire ttl=375']],
      ['catching-up (standby)', ['report-ok', 'catch-up 1']],
      ['publishing (active)', ['count-acquired', 'renew-after 125', 'subscribe 1']],
      ['publishing (active)', ["renew ttl=375 last=''", 'renew-after 125']],
      ['publishing (active)', ['count-published 2']],
      ['publishing (active)', []],
      ['publishing (active)', ["renew ttl=375 last='1-0'", 'renew-after 125']],
      ['publishing (active)', []],
    ],
  },
  {
    name: 'the lease lost: the session ends, active until its publishes are answered, then counted lost and a standby again',
    events: [...publishing, { type: 'lease-lost', session: 1 }, written('2-0'), drained()],
    out: [
      ['acquiring (standby)', ['acquire ttl=375']],
      ['catching-up (standby)', ['report-ok', 'catch-up 1']],
      ['publishing (active)', ['count-acquired', 'renew-after 125', 'subscribe 1']],
      ['ending (active)', ['cancel-renewal', 'unsubscribe', 'drain 1']],
      ['ending (active)', ['count-published 1']],
      ['waiting (standby)', ['count-lost', 'wait 50']],
    ],
  },
  {
    name: 'the stream completes: ends as a lost lease; the next session has the next number',
    events: [
      ...publishing,
      { type: 'stream-completed', session: 1 },
      drained(),
      waitOver,
      held,
      caughtUp(2),
    ],
    out: [
      ['acquiring (standby)', ['acquire ttl=375']],
      ['catching-up (standby)', ['report-ok', 'catch-up 1']],
      ['publishing (active)', ['count-acquired', 'renew-after 125', 'subscribe 1']],
      ['ending (active)', ['cancel-renewal', 'unsubscribe', 'drain 1']],
      ['waiting (standby)', ['count-lost', 'wait 50']],
      ['acquiring (standby)', ['acquire ttl=375']],
      ['catching-up (standby)', ['report-ok', 'catch-up 2']],
      ['publishing (active)', ['count-acquired', 'renew-after 125', 'subscribe 2']],
    ],
  },
  {
    name: 'the stream lost its history: the session fails; lost, then a Redis failure reported, attempt 1',
    events: [...publishing, { type: 'history-lost', session: 1 }, drained()],
    out: [
      ['acquiring (standby)', ['acquire ttl=375']],
      ['catching-up (standby)', ['report-ok', 'catch-up 1']],
      ['publishing (active)', ['count-acquired', 'renew-after 125', 'subscribe 1']],
      ['ending (retrying)', ['cancel-renewal', 'unsubscribe', 'drain 1']],
      [
        'waiting (retrying)',
        [
          'count-lost',
          'count-failure relay: the stream pools lost its history in Redis (flushed or evicted; keep maxmemory-policy noeviction); publishing it again from the venue',
          'report-retrying attempt=1 delay=100 relay: the stream pools lost its history in Redis (flushed or evicted; keep maxmemory-policy noeviction); publishing it again from the venue',
          'wait 100',
        ],
      ],
    ],
  },
  {
    name: 'a publish or renewal fails: the first failure of the session wins, later ends are ignored while it drains',
    events: [
      ...publishing,
      { type: 'session-failed', session: 1, error: new Error('OOM command not allowed') },
      { type: 'lease-lost', session: 1 },
      { type: 'session-failed', session: 1, error: new Error('later') },
      drained(),
    ],
    out: [
      ['acquiring (standby)', ['acquire ttl=375']],
      ['catching-up (standby)', ['report-ok', 'catch-up 1']],
      ['publishing (active)', ['count-acquired', 'renew-after 125', 'subscribe 1']],
      ['ending (retrying)', ['cancel-renewal', 'unsubscribe', 'drain 1']],
      ['ending (retrying)', []],
      ['ending (retrying)', []],
      [
        'waiting (retrying)',
        [
          'count-lost',
          'count-failure OOM command not allowed',
          'report-retrying attempt=1 delay=100 OOM command not allowed',
          'wait 100',
        ],
      ],
    ],
  },
  {
    name: 'Redis down: each failed ask backs off twice as long, up to leaseMs; an answer resets the count',
    events: [
      start,
      failed,
      waitOver,
      failed,
      waitOver,
      failed,
      waitOver,
      failed,
      waitOver,
      refused,
    ],
    out: [
      ['acquiring (standby)', ['acquire ttl=375']],
      [
        'waiting (retrying)',
        [
          'count-failure connect ECONNREFUSED',
          'report-retrying attempt=1 delay=100 connect ECONNREFUSED',
          'wait 100',
        ],
      ],
      ['acquiring (retrying)', ['acquire ttl=375']],
      [
        'waiting (retrying)',
        [
          'count-failure connect ECONNREFUSED',
          'report-retrying attempt=2 delay=200 connect ECONNREFUSED',
          'wait 200',
        ],
      ],
      ['acquiring (retrying)', ['acquire ttl=375']],
      [
        'waiting (retrying)',
        [
          'count-failure connect ECONNREFUSED',
          'report-retrying attempt=3 delay=400 connect ECONNREFUSED',
          'wait 400',
        ],
      ],
      ['acquiring (retrying)', ['acquire ttl=375']],
      [
        'waiting (retrying)',
        [
          'count-failure connect ECONNREFUSED',
          'report-retrying attempt=4 delay=500 connect ECONNREFUSED',
          'wait 500',
        ],
      ],
      ['acquiring (retrying)', ['acquire ttl=375']],
      ['waiting (standby)', ['report-ok', 'wait 50']],
    ],
  },
  {
    name: 'the takeover read fails: attempt 1, no lease lost (the session never began); stop then gives the lease up',
    events: [
      start,
      held,
      { type: 'session-failed', session: 1, error: redisDown },
      stop,
      { type: 'released' },
    ],
    out: [
      ['acquiring (standby)', ['acquire ttl=375']],
      ['catching-up (standby)', ['report-ok', 'catch-up 1']],
      [
        'waiting (retrying)',
        [
          'count-failure connect ECONNREFUSED',
          'report-retrying attempt=1 delay=100 connect ECONNREFUSED',
          'wait 100',
        ],
      ],
      ['releasing (standby)', ['cancel-wait', 'release']],
      ['closed (standby)', ['closed']],
    ],
  },
  {
    name: 'stop while publishing: the session ends, drains, then the lease is given up; no lease lost counted',
    events: [...publishing, stop, drained(), { type: 'released' }],
    out: [
      ['acquiring (standby)', ['acquire ttl=375']],
      ['catching-up (standby)', ['report-ok', 'catch-up 1']],
      ['publishing (active)', ['count-acquired', 'renew-after 125', 'subscribe 1']],
      ['ending (active)', ['cancel-renewal', 'unsubscribe', 'drain 1']],
      ['releasing (standby)', ['release']],
      ['closed (standby)', ['closed']],
    ],
  },
  {
    name: 'stop while a failed session drains: neither lost nor the failure is counted; the lease is given up',
    events: [
      ...publishing,
      { type: 'session-failed', session: 1, error: redisDown },
      stop,
      drained(),
    ],
    out: [
      ['acquiring (standby)', ['acquire ttl=375']],
      ['catching-up (standby)', ['report-ok', 'catch-up 1']],
      ['publishing (active)', ['count-acquired', 'renew-after 125', 'subscribe 1']],
      ['ending (retrying)', ['cancel-renewal', 'unsubscribe', 'drain 1']],
      ['ending (active)', []],
      ['releasing (standby)', ['release']],
    ],
  },
  {
    name: 'stop while a standby waits: the timer is canceled; closed at once, nothing to give up',
    events: [start, refused, stop, waitOver],
    out: [
      ['acquiring (standby)', ['acquire ttl=375']],
      ['waiting (standby)', ['report-ok', 'wait 50']],
      ['closed (standby)', ['cancel-wait', 'closed']],
      ['closed (standby)', []],
    ],
  },
  {
    name: 'stop while waiting after a lost session: the lease may still be ours, it is given up',
    events: [...publishing, { type: 'lease-lost', session: 1 }, drained(), stop],
    out: [
      ['acquiring (standby)', ['acquire ttl=375']],
      ['catching-up (standby)', ['report-ok', 'catch-up 1']],
      ['publishing (active)', ['count-acquired', 'renew-after 125', 'subscribe 1']],
      ['ending (active)', ['cancel-renewal', 'unsubscribe', 'drain 1']],
      ['waiting (standby)', ['count-lost', 'wait 50']],
      ['releasing (standby)', ['cancel-wait', 'release']],
    ],
  },
  {
    name: 'stop while asking for the lease: the answer is awaited; taken, it is given up (no session)',
    events: [start, stop, held, { type: 'released' }],
    out: [
      ['acquiring (standby)', ['acquire ttl=375']],
      ['stopping (standby)', []],
      ['releasing (standby)', ['report-ok', 'release']],
      ['closed (standby)', ['closed']],
    ],
  },
  {
    name: 'stop while asking for the lease: refused, closed at once (no wait)',
    events: [start, stop, refused],
    out: [
      ['acquiring (standby)', ['acquire ttl=375']],
      ['stopping (standby)', []],
      ['closed (standby)', ['report-ok', 'closed']],
    ],
  },
  {
    name: 'stop while asking for the lease: the ask fails, no failure reported; closed (it held none)',
    events: [start, stop, failed],
    out: [
      ['acquiring (standby)', ['acquire ttl=375']],
      ['stopping (standby)', []],
      ['closed (standby)', ['closed']],
    ],
  },
  {
    name: 'stop while the takeover is read: no session starts; the lease is given up',
    events: [start, held, stop, caughtUp(), { type: 'released' }],
    out: [
      ['acquiring (standby)', ['acquire ttl=375']],
      ['catching-up (standby)', ['report-ok', 'catch-up 1']],
      ['stopping (standby)', []],
      ['releasing (standby)', ['release']],
      ['closed (standby)', ['closed']],
    ],
  },
  {
    name: "a stale session's events change nothing; its publishes still count",
    events: [
      ...publishing,
      { type: 'lease-lost', session: 1 },
      drained(),
      waitOver,
      held,
      caughtUp(2),
      { type: 'lease-lost', session: 1 },
      { type: 'session-failed', session: 1, error: redisDown },
      renewDue(1),
      drained(1),
      written('9-0', 3, 1),
      renewDue(2),
    ],
    out: [
      ['acquiring (standby)', ['acquire ttl=375']],
      ['catching-up (standby)', ['report-ok', 'catch-up 1']],
      ['publishing (active)', ['count-acquired', 'renew-after 125', 'subscribe 1']],
      ['ending (active)', ['cancel-renewal', 'unsubscribe', 'drain 1']],
      ['waiting (standby)', ['count-lost', 'wait 50']],
      ['acquiring (standby)', ['acquire ttl=375']],
      ['catching-up (standby)', ['report-ok', 'catch-up 2']],
      ['publishing (active)', ['count-acquired', 'renew-after 125', 'subscribe 2']],
      ['publishing (active)', []],
      ['publishing (active)', []],
      ['publishing (active)', []],
      ['publishing (active)', []],
      ['publishing (active)', ['count-published 3']],
      ['publishing (active)', ["renew ttl=375 last=''", 'renew-after 125']],
    ],
  },
  {
    name: 'stop before start: closed; a stop after closing changes nothing',
    events: [stop, stop, start],
    out: [
      ['closed (standby)', ['closed']],
      ['closed (standby)', []],
      ['closed (standby)', []],
    ],
  },
]

describe('the relay session reducer', () => {
  it.each(CASES)('$name', ({ events, out }) => {
    expect(run(events)).toEqual(out)
  })

  it('times the lease on leaseMs: ttl three quarters, renewal a quarter, standby a tenth, backoff up to 2 s', () => {
    const long = { name: 'depth:1', leaseMs: 3_600_000 }
    const steps = run([start, refused, waitOver, failed, waitOver, held, caughtUp()], long)
    expect(
      steps.map(([, effects]) => effects.filter((e) => /^(acquire|wait|renew)/.test(e))),
    ).toEqual([
      ['acquire ttl=2700000'],
      ['wait 360000'],
      ['acquire ttl=2700000'],
      ['wait 100'],
      ['acquire ttl=2700000'],
      [],
      ['renew-after 900000'],
    ])
    // The shortest lease: every timer at least 10 ms.
    const short = run([start, refused, waitOver, held, caughtUp()], { name: 'x', leaseMs: 20 })
    expect(short.flatMap(([, effects]) => effects.filter((e) => /^(wait|renew)/.test(e)))).toEqual([
      'wait 10',
      'renew-after 10',
    ])
  })

  it('never changes the state it is given (a pure function)', () => {
    let life = IDLE
    for (const event of publishing) life = stepSession(life, event, SETTINGS).life
    const frozen = JSON.stringify(life)
    stepSession(life, written('5-0'), SETTINGS)
    stepSession(life, { type: 'lease-lost', session: 1 }, SETTINGS)
    stepSession(life, stop, SETTINGS)
    expect(JSON.stringify(life)).toBe(frozen)
  })
})
