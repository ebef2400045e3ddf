/**
 * An accounting export: every fill of the demo account on the embedded simulator, written
 * once as a CSV line, resumable through a `fileCheckpoint`. The export backfills page by
 * page and stops as soon as it has caught up (`onProgress` reports phase `'tail'`), then
 * prints the line count and the path.
 *
 * It runs twice on the same files: the second run resumes from the checkpoint and finds
 * nothing new, so it appends no line. (Each start of this script makes a fresh temporary
 * directory; with a fixed directory and a live venue, a later run appends only the fills
 * that happened since the previous one.)
 *
 *   npx tsx examples/accounting-export.ts
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { lastValueFrom, Subject, takeUntil, tap } from 'rxjs'
import { createVenue, type Fill, fileCheckpoint } from 'venue-rx'
import { startSimulator } from 'venue-rx/simulator'

const sim = await startSimulator({ seed: 1, clock: 'manual' })
sim.advance(1200) // five simulated minutes of trading: a few hundred fills of the demo account
const venue = createVenue({
  baseUrl: sim.url,
  apiKey: sim.apiKey,
  maxRequestsPerSecond: 100, // the default budget is 10 requests a second
})
const dir = mkdtempSync(join(tmpdir(), 'venue-rx-accounting-'))
const csvPath = join(dir, 'fills.csv')
const checkpointPath = join(dir, 'fills.cursor.json')
const keep = process.env['ACCOUNTING_KEEP'] === '1' // leave the files for a look

const HEADER = 'global_seq,timestamp,pool_id,order_id,side,role,price,quantity,quote_quantity,fee'
const csvLine = (fill: Fill): string =>
  [
    fill.globalSeq,
    new Date(fill.timestamp).toISOString(),
    fill.poolId,
    fill.orderId,
    fill.side,
    fill.role,
    fill.price,
    fill.quantity,
    fill.quoteQuantity,
    fill.fee,
  ].join(',')

/** Appends the fills not exported yet to the CSV file; resolves to how many it wrote. */
async function exportFills(): Promise<number> {
  if (!existsSync(csvPath)) appendFileSync(csvPath, `${HEADER}\n`)
  const caughtUp = new Subject<void>()
  let written = 0
  await lastValueFrom(
    venue
      .watchFills({
        checkpoint: fileCheckpoint(checkpointPath), // saved after each fill is written
        order: 'ascending', // the CSV in global_seq order: each fill once the watermark passed it
        onProgress: ({ phase, held }) => {
          // Every fill up to now is written (none held for the watermark): stop.
          if (phase === 'tail' && held === 0) caughtUp.next()
        },
      })
      .pipe(
        tap((fill) => {
          appendFileSync(csvPath, `${csvLine(fill)}\n`) // synchronous: done before the save
          written += 1
        }),
        takeUntil(caughtUp),
      ),
    { defaultValue: undefined },
  )
  return written
}

const lineCount = (): number => readFileSync(csvPath, 'utf8').split('\n').length - 1

try {
  const first = await exportFills()
  console.log(`run 1: ${first} fills appended, ${lineCount()} lines in ${csvPath}`)
  const second = await exportFills()
  console.log(`run 2: ${second} fills appended, ${lineCount()} lines in ${csvPath}`)
  console.log(`first line: ${readFileSync(csvPath, 'utf8').split('\n')[1]}`)
  if (!keep) console.log('(the directory is removed on exit; ACCOUNTING_KEEP=1 keeps it)')
} finally {
  await venue.close()
  await sim.close()
  if (!keep) rmSync(dir, { recursive: true, force: true })
}
