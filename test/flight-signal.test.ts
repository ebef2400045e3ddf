import { describe, expect, it, vi } from 'vitest'
import { FlightSignal } from '../src/transport/transport.js'

describe('FlightSignal', () => {
  it('runs each listener once, in the order added, with the reason set; a removed one not at all', () => {
    const signal = new FlightSignal()
    const seen: string[] = []
    const first = () => seen.push(`first ${String(signal.reason)}`)
    const removed = () => seen.push('removed')
    signal.addEventListener('abort', first)
    signal.addEventListener('abort', removed)
    signal.addEventListener('abort', () => seen.push(`last ${String(signal.aborted)}`))
    signal.removeEventListener('abort', removed)
    expect(signal.aborted).toBe(false)
    signal.abort('gone')
    signal.abort('again')
    expect(seen).toEqual(['first gone', 'last true'])
    expect(signal.reason).toBe('gone')
  })

  it('keeps no listener once fired, and takes none after', () => {
    const signal = new FlightSignal()
    const late = vi.fn()
    signal.abort(new Error('x'))
    signal.addEventListener('abort', late)
    signal.abort(new Error('y'))
    expect(late).not.toHaveBeenCalled()
    expect((signal.reason as Error).message).toBe('x')
  })

  it('reports a listener that throws as an uncaught error and still runs the others', async () => {
    const signal = new FlightSignal()
    const after = vi.fn()
    const thrown = new Error('listener failed')
    signal.addEventListener('abort', () => {
      throw thrown
    })
    signal.addEventListener('abort', after)
    const uncaught = new Promise<unknown>((resolve) => {
      const listeners = process.listeners('uncaughtException')
      process.removeAllListeners('uncaughtException')
      process.once('uncaughtException', (error) => {
        for (const listener of listeners) process.on('uncaughtException', listener)
        resolve(error)
      })
    })
    signal.abort('stop')
    expect(after).toHaveBeenCalledTimes(1)
    expect(await uncaught).toBe(thrown)
  })
})
