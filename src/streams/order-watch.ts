/**
 * One `watchOrder` subscription as a state machine, pure: what its feeds and requests bring
 * goes in (the fills feed starting, each fill, each view of the open orders, the venue's
 * clock, what the venue answered, the time), the next phase and the events to emit come
 * out, with what to do next (ask the venue for the order, wake at a time, complete). The
 * order's own life, once found, is order-life.ts's reducer; no I/O here: watch-order.ts
 * runs the requests and timers the phases ask for.
 *
 * Phases: `starting` (the fills feed says where it starts; the venue's clock for a client
 * id), `looking` (the open orders are watched for the order), `finding` (the venue is asked
 * for what the feeds did not show), `following` (the order's life), `done`.
 *
 * @packageDocumentation
 */
import { compareDecimal, compareIds } from '../decimal.js'
import type { OpenOrder, Order } from '../schemas/order.js'
import type { Fill } from './fills.js'
import type { OrdersView } from './order-feeds.js'
import { isOrderFill, liveFills } from './order-fills.js'
import {
  type OrderEvent,
  type OrderInput,
  type OrderLife,
  type OrderLifeSettings,
  type OrderStep,
  startOrder,
  stepOrder,
} from './order-life.js'
import type { OrderEnding } from './watch-open-orders.js'

/** The order asked for: by composite id, or by client id placed at or after a time (ms). */
export type Wanted =
  | { readonly id: string }
  | { readonly clientId: string; readonly placedAfter: number }

/** The order as the subscription names it: a client id's time may await the venue's clock. */
export type Target =
  | { readonly id: string }
  | { readonly clientId: string; readonly placedAfter: number | undefined }

/** What the machine needs to know of its feeds and of the order's life. */
export interface WatchSettings {
  readonly life: OrderLifeSettings
  /** The feeds hold the whole story of an order they show (`OrderFeeds.whole`). */
  readonly whole: boolean
  /** How long after the fills are ready the list is given to show the order, ms. */
  readonly showWithinMs: number
}

/** What the venue is asked while the order is found (one request chain, run by the shell). */
export type FindPlan =
  /**
   * Listed without a fill (polling): the fills of the last minute, if it is that young (it
   * may have filled before the fills tail started).
   */
  | { readonly type: 'recent-fills'; readonly record: OpenOrder; readonly readyAt: number }
  /** Its record and trades (`/orders/{id}`), until the venue shows it. */
  | { readonly type: 'look-up'; readonly id: string }
  /**
   * Not shown by the feeds: the newest ended orders, then its look-up (by client id first);
   * `early`, the fills the feeds brought of it (enough, with the whole story, to skip the
   * look-up of an order ended without more).
   */
  | { readonly type: 'venue'; readonly wanted: Wanted; readonly early: readonly Fill[] }

/** A view of the open orders, and when it came (ms). */
interface Seen {
  readonly view: OrdersView
  readonly now: number
}

/** Where one subscription is. */
export type WatchState =
  | {
      readonly phase: 'starting'
      readonly target: Target
      /** When the fills feed said it was ready (ms), once it did. */
      readonly readyAt: number | undefined
      /** Fills of the wanted order (by id or client id) so far. */
      readonly early: readonly Fill[]
      /**
       * The latest poll of the list seen meanwhile (taken once looking); a relay's latest
       * view, with the endings of the order asked for since the subscription.
       */
      readonly latest: Seen | undefined
    }
  | {
      readonly phase: 'looking'
      readonly wanted: Wanted
      readonly readyAt: number
      readonly early: readonly Fill[]
    }
  | {
      readonly phase: 'finding'
      readonly wanted: Wanted
      readonly early: readonly Fill[]
      /** What the venue is asked, for as long as this phase lasts. */
      readonly plan: FindPlan
    }
  | {
      readonly phase: 'following'
      readonly life: OrderLife
      /** The account's chain account, when the venue was asked for it (its records' trades). */
      readonly account: string | undefined
      /** The order as the last view listed it. */
      readonly listed: OpenOrder | undefined
      /** Ticks of the order's own clock so far. */
      readonly polls: number
    }
  | { readonly phase: 'done' }

/** What happened: from the feeds, the shell's requests, or the clock. */
export type WatchInput =
  /** The fills feed is ready (see `OrderFeeds.fills`). */
  | { readonly type: 'ready'; readonly now: number }
  | { readonly type: 'fill'; readonly fill: Fill }
  | { readonly type: 'orders'; readonly view: OrdersView; readonly now: number }
  /** The venue's clock, for a client id without `placedAfter`: the time to take orders from. */
  | { readonly type: 'placed-after'; readonly at: number }
  /** The venue answered a {@link FindPlan}: the order's record and the fills known of it. */
  | {
      readonly type: 'found'
      readonly record: OpenOrder | Order
      readonly fills: readonly Fill[]
      readonly account: string | undefined
      readonly now: number
    }
  /** An ask of the order's life answered, or the clock passed its wake-up time. */
  | Extract<OrderInput, { readonly type: 'answer' | 'unanswered' | 'time' }>
  /** A feed ended (the venue closed): the stream completes. */
  | { readonly type: 'closed' }

/** One transition: the next state, what to emit, and what to do next. */
export interface WatchStep {
  readonly state: WatchState
  readonly events: readonly OrderEvent[]
  /** Ask the venue for the order (following: see `OrderStep.ask`). */
  readonly ask: boolean
  /** Wake the machine with a `time` input at this time (ms), if set. */
  readonly wakeAt: number | undefined
  /** The stream is over: complete after emitting `events`. */
  readonly complete: boolean
}

/**
 * The first state of a subscription to `target`.
 *
 * @example
 * ```ts
 * let step = startWatch({ id: '0-25-0' })
 * step = stepWatch(step.state, { type: 'ready', now: 0 }, settings) // looking
 * ```
 */
export function startWatch(target: Target): WatchStep {
  return still({ phase: 'starting', target, readyAt: undefined, early: [], latest: undefined })
}

/**
 * The transition of one input: every change of phase happens here.
 *
 * @example
 * ```ts
 * stepWatch(looking, { type: 'orders', view, now }, settings)
 * // the order listed without a fill on a relay: following it, no request
 * ```
 */
export function stepWatch(
  state: WatchState,
  input: WatchInput,
  settings: WatchSettings,
): WatchStep {
  if (input.type === 'closed') return ended([])
  switch (state.phase) {
    case 'starting':
      return starting(state, input, settings)
    case 'looking':
      return looking(state, input, settings)
    case 'finding':
      return finding(state, input, settings)
    case 'following':
      return following(state, input, settings)
    case 'done':
      return still(state)
  }
}

type StateOf<P extends WatchState['phase']> = Extract<WatchState, { readonly phase: P }>

function starting(state: StateOf<'starting'>, input: WatchInput, settings: WatchSettings) {
  switch (input.type) {
    case 'fill':
      return still({ ...state, early: withFill(state.early, state.target, input.fill) })
    case 'ready':
      return toLooking({ ...state, readyAt: input.now }, settings)
    case 'placed-after':
      if ('id' in state.target) return still(state)
      return toLooking({ ...state, target: { ...state.target, placedAfter: input.at } }, settings)
    case 'orders':
      if (settings.whole) return still({ ...state, latest: withView(state, input) })
      return input.view.poll
        ? still({ ...state, latest: { view: input.view, now: input.now } })
        : still(state)
    default:
      return still(state)
  }
}

/**
 * The relayed list seen before the fills are ready, as one view: the list as it stands,
 * with every ending of the order asked for since the subscription, so that an order listed
 * at the subscription still shows once it has ended (a later view no longer lists it).
 */
function withView(
  state: StateOf<'starting'>,
  input: { readonly view: OrdersView; readonly now: number },
): Seen {
  const { target } = state
  const mine = (ending: OrderEnding) =>
    ending.final !== undefined &&
    ('id' in target ? ending.id === target.id : ending.final.order_cid === target.clientId)
  const earlier = state.latest?.view.endings ?? []
  const endings = [...earlier, ...input.view.endings.filter(mine)]
  return { view: { ...input.view, endings }, now: input.now }
}

/** Looking once the fills are ready and the order's name is whole; the latest poll then. */
function toLooking(state: StateOf<'starting'>, settings: WatchSettings): WatchStep {
  const { target, readyAt } = state
  if (readyAt === undefined) return still(state)
  let wanted: Wanted
  if ('id' in target) wanted = target
  else if (target.placedAfter === undefined) return still(state)
  else wanted = { clientId: target.clientId, placedAfter: target.placedAfter }
  const next: StateOf<'looking'> = { phase: 'looking', wanted, readyAt, early: state.early }
  const { latest } = state
  if (latest === undefined) return still(next)
  // Taken now: a relay's view seen before the fills were ready is as new as they are.
  const now = Math.max(latest.now, readyAt)
  return looking(next, { type: 'orders', view: latest.view, now }, settings)
}

function looking(state: StateOf<'looking'>, input: WatchInput, settings: WatchSettings) {
  if (input.type === 'fill') {
    return still({ ...state, early: withFill(state.early, state.wanted, input.fill) })
  }
  if (input.type !== 'orders') return still(state)
  const { view, now } = input
  const shown = shownIn(view, state.wanted)
  if (settings.whole && shown !== undefined) {
    return follow(shown.order, [], undefined, state.early, now, settings)
  }
  if (!view.poll || now < state.readyAt + settings.showWithinMs) return still(state)
  // The list had its chance: what it shows decides what the venue is asked.
  if (shown?.how === 'ended' && isUnfilled(shown.order)) {
    return follow(shown.order, [], undefined, state.early, now, settings)
  }
  const plan = planFor(state, shown)
  return still({ phase: 'finding', wanted: state.wanted, early: state.early, plan })
}

/** What to ask the venue for an order the list shows as `shown` (or does not). */
function planFor(state: StateOf<'looking'>, shown: Shown | undefined): FindPlan {
  if (shown === undefined) return { type: 'venue', wanted: state.wanted, early: state.early }
  if (shown.how === 'listed' && isUnfilled(shown.order)) {
    return { type: 'recent-fills', record: shown.order, readyAt: state.readyAt }
  }
  return { type: 'look-up', id: shown.order.id }
}

function finding(state: StateOf<'finding'>, input: WatchInput, settings: WatchSettings) {
  switch (input.type) {
    case 'fill':
      return still({ ...state, early: withFill(state.early, state.wanted, input.fill) })
    case 'found':
      return follow(input.record, input.fills, input.account, state.early, input.now, settings)
    case 'orders': {
      // With the whole story, the feeds showing the order end the venue's asks.
      const shown = settings.whole ? shownIn(input.view, state.wanted) : undefined
      return shown === undefined
        ? still(state)
        : follow(shown.order, [], undefined, state.early, input.now, settings)
    }
    default:
      return still(state)
  }
}

/** The order found: its life starts with the fills known of it (the feeds' and the venue's). */
function follow(
  record: OpenOrder | Order,
  fills: readonly Fill[],
  account: string | undefined,
  early: readonly Fill[],
  now: number,
  settings: WatchSettings,
): WatchStep {
  const mine = early.filter((fill) => isOrderFill(fill, record.id))
  const step = startOrder(record, [...fills, ...mine], settings.life, now)
  return fromLife(step, { account, listed: undefined, polls: 0 })
}

function following(state: StateOf<'following'>, input: WatchInput, settings: WatchSettings) {
  const { phase: _phase, life, ...rest } = state
  switch (input.type) {
    case 'fill':
      return isOrderFill(input.fill, life.id)
        ? fromLife(stepOrder(life, { type: 'fills', fills: [input.fill] }, settings.life), rest)
        : still(state)
    case 'orders': {
      const { view, now } = input
      const open = view.open.get(life.id)
      const ending = view.endings.find((each) => each.id === life.id)
      const polls = view.poll ? state.polls + 1 : state.polls
      // A relayed change of another order says nothing of this one.
      if (!view.poll && ending === undefined && open === state.listed) return still(state)
      const step = stepOrder(
        life,
        { type: 'poll', poll: polls, now, open, end: endOf(ending, life, state.account) },
        settings.life,
      )
      return fromLife(step, { account: state.account, listed: open, polls })
    }
    case 'answer':
    case 'unanswered':
    case 'time':
      return fromLife(stepOrder(life, input, settings.life), rest)
    default:
      return still(state)
  }
}

/** How the list says the order ended, as its life takes it. */
function endOf(ending: OrderEnding | undefined, life: OrderLife, account: string | undefined) {
  if (ending === undefined) return undefined
  if (ending.status === 'unknown') return { status: ending.status, record: life.record, fills: [] }
  return { status: ending.status, record: ending.final, fills: liveFills(ending.final, account) }
}

/** What the `following` phase holds besides the order's life. */
type FollowingRest = Omit<StateOf<'following'>, 'phase' | 'life'>

/** A step of the order's life, as the machine's. */
function fromLife(step: OrderStep, rest: FollowingRest): WatchStep {
  if (step.complete) return ended(step.events)
  return {
    state: { phase: 'following', life: step.life, ...rest },
    events: step.events,
    ask: step.ask,
    wakeAt: step.wakeAt,
    complete: false,
  }
}

function still(state: WatchState): WatchStep {
  return { state, events: [], ask: false, wakeAt: undefined, complete: false }
}

function ended(events: readonly OrderEvent[]): WatchStep {
  return { state: { phase: 'done' }, events, ask: false, wakeAt: undefined, complete: true }
}

/** How a view shows the order asked for. */
type Shown =
  | { readonly how: 'listed'; readonly order: OpenOrder }
  | { readonly how: 'ended'; readonly order: Order }

/** The order as `view` shows it: listed, or ended in it (its final record). */
function shownIn(view: OrdersView, wanted: Wanted): Shown | undefined {
  const listed = pickListed(view.open, wanted)
  if (listed !== undefined) return { how: 'listed', order: listed }
  const ended = endedIn(view.endings, wanted)
  return ended === undefined ? undefined : { how: 'ended', order: ended }
}

/** `early` with `fill` when it is of the order asked for (by id, or by client id). */
function withFill(early: readonly Fill[], target: Target, fill: Fill): readonly Fill[] {
  const wanted = 'id' in target ? isOrderFill(fill, target.id) : fill.clientId === target.clientId
  return wanted ? [...early, fill] : early
}

/** Whether nothing of `order` executed. */
function isUnfilled(order: OpenOrder): boolean {
  return compareDecimal(order.executed_amount, '0') === 0
}

/** The time from which a client id's order is taken: order times are whole seconds. */
function placedFrom(wanted: { readonly placedAfter: number }): number {
  return Math.floor(wanted.placedAfter / 1000) * 1000
}

/** Whether `order` is the one asked for (by id, or by client id placed in time). */
export function isWanted(order: OpenOrder, wanted: Wanted): boolean {
  if ('id' in wanted) return order.id === wanted.id
  return order.order_cid === wanted.clientId && order.order_time >= placedFrom(wanted)
}

/**
 * The listed order asked for: by id, or the newest with the client id placed in time.
 *
 * @example
 * ```ts
 * pickListed(view.open, { clientId: 'bot-1', placedAfter: 0 }) // the newest order of bot-1
 * ```
 */
export function pickListed(
  open: ReadonlyMap<string, OpenOrder>,
  wanted: Wanted,
): OpenOrder | undefined {
  if ('id' in wanted) return open.get(wanted.id)
  return newest([...open.values()].filter((order) => isWanted(order, wanted)))
}

/** The newest of `orders` (by time, then order id). */
function newest<T extends OpenOrder>(orders: readonly T[]): T | undefined {
  let best: T | undefined
  for (const order of orders) {
    if (
      best === undefined ||
      order.order_time > best.order_time ||
      (order.order_time === best.order_time && compareIds(order.order_id, best.order_id) > 0)
    ) {
      best = order
    }
  }
  return best
}

/** The final record of the order asked for among `endings`, if it ended there. */
function endedIn(endings: readonly OrderEnding[], wanted: Wanted): Order | undefined {
  const finals = endings.flatMap((ending) => (ending.status === 'unknown' ? [] : [ending.final]))
  return newest(finals.filter((order) => isWanted(order, wanted)))
}
