import { distinctUntilChanged, map, type OperatorFunction } from 'rxjs'
import type { OrderBook } from '../book/order-book.js'
import { orderBook } from './inputs.js'

/**
 * The operator of a book signal: checks each input is an `OrderBook`, computes
 * `value(book)` (`null` when the book has no such value, e.g. an empty side) and emits it
 * only when it changed, `null` included: a side that vanishes shows once as `null`, and
 * the next value after it shows even if it equals the one before the `null`.
 */
export function bookSignal<T>(
  method: string,
  value: (book: OrderBook) => T | null,
  same: (a: T, b: T) => boolean = Object.is,
): OperatorFunction<OrderBook, T | null> {
  return (source) =>
    source.pipe(
      map((input) => value(orderBook(method, input))),
      distinctUntilChanged((a, b) => (a === null || b === null ? a === b : same(a, b))),
    )
}
