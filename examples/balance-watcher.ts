/**
 * A balance watcher with a health board: the demo account's balance changes on the
 * embedded simulator, and `venue.health` lines when a stream is not `ok`. Halfway, the
 * simulator fails half of its answers (`errorRate: 0.5`) until the balances stream reports
 * `retrying`; then the faults are cleared and the example stops once the stream is `ok`
 * again (or, should that never happen, after 30 seconds).
 *
 *   npx tsx examples/balance-watcher.ts
 */
import { createVenue, type StreamHealth } from 'venue-rx'
import { startSimulator } from 'venue-rx/simulator'

const sim = await startSimulator({ seed: 1, tickMs: 50 }) // a market that moves every 50 ms
const venue = createVenue({
  baseUrl: sim.url,
  apiKey: sim.apiKey,
  pollIntervalMs: 50,
  maxRequestsPerSecond: 100, // the default budget is 10 requests a second
  backoff: { initialMs: 50, maxMs: 200, factor: 2, jitter: true }, // quick retries for a demo
})
const KEY = 'watchBalances()' // the stream's key on the health board
try {
  await new Promise<void>((resolve, reject) => {
    let updates = 0
    let phase: 'before' | 'faults' | 'recovering' = 'before'
    const stop = setTimeout(() => {
      console.log('time is up')
      resolve()
    }, 30_000)
    const finish = (error?: unknown): void => {
      clearTimeout(stop)
      balances.unsubscribe()
      health.unsubscribe()
      if (error === undefined) resolve()
      else reject(error)
    }
    const balances = venue.watchBalances().subscribe({
      next: ({ changes }) => {
        updates += 1
        for (const change of changes) {
          const balance = change.type === 'removed' ? change.previous : change.current
          console.log(
            `balance ${change.type.padEnd(7)} ${balance.coin.padEnd(16)} ${balance.balance} (locked ${balance.locked})`,
          )
        }
        // After the first few updates, trouble: half the answers are 503s.
        if (phase === 'before' && updates === 3) {
          phase = 'faults'
          console.log('faults on: errorRate 0.5')
          sim.faults.set({ errorRate: 0.5 })
        }
      },
      error: finish,
    })
    const health = venue.health.subscribe((report) => {
      const state: StreamHealth | undefined = report[KEY]
      if (state === undefined) return
      if (state.state === 'retrying') {
        console.log(
          `health ${KEY} retrying: attempt ${state.attempt}, ${state.lastErrorCode}, next try in ${state.nextDelayMs} ms`,
        )
        if (phase === 'faults') {
          phase = 'recovering'
          console.log('faults off')
          sim.faults.clear()
        }
      } else {
        console.log(`health ${KEY} ${state.state}`)
        if (state.state === 'ok' && phase === 'recovering') finish()
      }
    })
  })
} finally {
  await venue.close()
  await sim.close()
}
