import { describe, expect, it } from 'vitest'
import type { Level } from '../src/book/book-event.js'
import { BIDS, book } from './helpers/book-fixtures.js'

describe('OrderBook getters', () => {
  it('gives the best bid, best ask, spread and an exact mid', () => {
    const b = book()
    expect(b.bestBid).toEqual(['1.0452', '310.5'])
    expect(b.bestAsk).toEqual(['1.046', '100'])
    expect(b.spread).toBe('0.0008')
    expect(b.mid).toBe('1.0456')
    expect(b.crossed).toBe(false)
  })

  it('keeps an odd last digit in the mid instead of rounding', () => {
    const b = book([['1.0001', '1']], [['1.0004', '1']])
    expect(b.mid).toBe('1.00025')
    expect(b.spread).toBe('0.0003')
  })

  it('has no best price, spread or mid on an empty side, and is not crossed', () => {
    const noAsks = book(BIDS, [])
    expect(noAsks.bestAsk).toBeUndefined()
    expect(noAsks.spread).toBeUndefined()
    expect(noAsks.mid).toBeUndefined()
    expect(noAsks.crossed).toBe(false)
    const empty = book([], [])
    expect(empty.bestBid).toBeUndefined()
    expect(empty.bestAsk).toBeUndefined()
    expect(empty.crossed).toBe(false)
  })

  it('is crossed when the best bid is at or above the best ask (by value)', () => {
    expect(book([['1.05', '1']], [['1.050', '1']]).crossed).toBe(true)
    const above = book([['1.06', '1']], [['1.05', '1']])
    expect(above.crossed).toBe(true)
    expect(above.spread).toBe('-0.01')
    expect(book([['1.049', '1']], [['1.05', '1']]).crossed).toBe(false)
  })

  it('keeps poolId, seq and timestamp', () => {
    const b = book()
    expect([b.poolId, b.seq, b.timestamp]).toEqual([7, 1, 1_700_000_000_000])
  })
})

describe('OrderBook.quantityUpTo', () => {
  it('buy walks the asks at or below the price', () => {
    const b = book()
    expect(b.quantityUpTo('buy', '1.046')).toBe('100')
    expect(b.quantityUpTo('buy', '1.0470')).toBe('150')
    expect(b.quantityUpTo('buy', '1.049')).toBe('150')
    expect(b.quantityUpTo('buy', '2')).toBe('160')
    expect(b.quantityUpTo('buy', '1.0459')).toBe('0')
  })

  it('sell walks the bids at or above the price', () => {
    const b = book()
    expect(b.quantityUpTo('sell', '1.0452')).toBe('310.5')
    expect(b.quantityUpTo('sell', '1.045')).toBe('330.5')
    expect(b.quantityUpTo('sell', '0')).toBe('335.5')
    expect(b.quantityUpTo('sell', '1.05')).toBe('0')
  })

  it('is 0 on an empty side', () => {
    expect(book([], []).quantityUpTo('buy', '100')).toBe('0')
    expect(book([], []).quantityUpTo('sell', '0')).toBe('0')
  })
})

describe('OrderBook.costToFill', () => {
  it('fills completely within the first levels, with the exact cost and worst price', () => {
    expect(book().costToFill('buy', '120')).toEqual({
      filled: '120',
      cost: '125.54',
      complete: true,
      worstPrice: '1.047',
    })
    expect(book().costToFill('buy', '100')).toEqual({
      filled: '100',
      cost: '104.6',
      complete: true,
      worstPrice: '1.046',
    })
  })

  it('sells into the bids from the highest', () => {
    // 310.5 × 1.0452 + 4.5 × 1.045
    expect(book().costToFill('sell', '315')).toEqual({
      filled: '315',
      cost: '329.2371',
      complete: true,
      worstPrice: '1.045',
    })
  })

  it('fills partially when the side runs out', () => {
    // 100 × 1.046 + 50 × 1.047 + 10 × 1.05
    expect(book().costToFill('buy', '200')).toEqual({
      filled: '160',
      cost: '167.45',
      complete: false,
      worstPrice: '1.05',
    })
  })

  it('is complete when the quantity is exactly the whole side', () => {
    expect(book().costToFill('buy', '160.000')).toEqual({
      filled: '160',
      cost: '167.45',
      complete: true,
      worstPrice: '1.05',
    })
  })

  it('fills nothing on an empty side', () => {
    expect(book(BIDS, []).costToFill('buy', '1')).toEqual({
      filled: '0',
      cost: '0',
      complete: false,
      worstPrice: undefined,
    })
  })

  it('a zero quantity is complete and touches no price', () => {
    expect(book().costToFill('sell', '0')).toEqual({
      filled: '0',
      cost: '0',
      complete: true,
      worstPrice: undefined,
    })
  })
})

describe('OrderBook immutability', () => {
  it('freezes the view and both sides', () => {
    const b = book()
    expect(Object.isFrozen(b)).toBe(true)
    expect(Object.isFrozen(b.bids)).toBe(true)
    expect(Object.isFrozen(b.asks)).toBe(true)
    expect(Reflect.set(b, 'seq', 99)).toBe(false)
    expect(b.seq).toBe(1)
    expect(() => (b.bids as Level[]).push(['1', '1'])).toThrow(TypeError)
  })

  it('copies sides it was given unfrozen, so later changes to them do not leak in', () => {
    const bids: Level[] = [['1', '1']]
    const b = book(bids, [])
    bids.push(['0.5', '1'])
    expect(b.bids).toEqual([['1', '1']])
    expect(b.bids).not.toBe(bids)
  })

  it('reuses a side that is already frozen', () => {
    const asks = Object.freeze([['2', '1']] as Level[])
    expect(book([], asks).asks).toBe(asks)
  })
})
