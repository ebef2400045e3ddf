/**
 * Saves per second of the checkpoints, called as a feed calls them (`save`, awaited only
 * when it returns a promise), with ascending string cursors like `global_seq`:
 *
 * - memoryCheckpoint (the baseline),
 * - the file checkpoint before the journal (each save written to a temporary file and
 *   renamed over the checkpoint, reimplemented here as it was),
 * - fileCheckpoint (each save appended over the closing brace of the open file),
 * - and the same pairs with `durable: true` (fewer saves: each one syncs the disk),
 * - plus the ways of appending that were measured for the journal: `writeSync` on a kept
 *   descriptor, `appendFileSync` (an open and a close per save), a `FileHandle` with awaited
 *   writes.
 *
 *   npx tsx bench/checkpoint-save.ts [saves, default 100000] [durable saves, default 300]
 */
import { randomBytes } from 'node:crypto'
import { appendFileSync, closeSync, openSync, writeSync } from 'node:fs'
import { mkdtemp, open, rename, rm, unlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Checkpoint } from '../src/index.js'
import { fileCheckpoint, memoryCheckpoint } from '../src/index.js'
import { positionalArgs, printColumns } from './support/measure.js'

const SAVES = Number(positionalArgs()[0] ?? 100_000)
const DURABLE_SAVES = Number(positionalArgs()[1] ?? 300)
/** The old file checkpoint costs ~0.3-0.5 ms a save here: fewer of them. */
const BEFORE_SAVES = Math.min(SAVES, 3_000)

/** The file checkpoint before the journal: temporary file, then rename, per save. */
function renameCheckpoint(path: string, durable = false): Checkpoint<string> {
  return {
    load: () => undefined,
    save: async (cursor) => {
      const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
      try {
        const file = await open(temporary, 'w')
        try {
          await file.writeFile(JSON.stringify({ cursor }))
          if (durable) await file.sync()
        } finally {
          await file.close()
        }
        await rename(temporary, path)
      } catch (error) {
        await unlink(temporary).catch(() => undefined)
        throw error
      }
      if (durable) {
        const directory = await open(dirname(path), 'r')
        try {
          await directory.sync()
        } finally {
          await directory.close()
        }
      }
    },
  }
}

/** Saves `count` ascending cursors as a feed does; returns saves per second. */
async function run(checkpoint: Checkpoint<string>, count: number): Promise<number> {
  const start = performance.now()
  for (let i = 0; i < count; i++) {
    const saving = checkpoint.save({ watermark: String(5_000_000 + 3 * i), above: [] })
    if (saving !== undefined) await saving
  }
  return count / ((performance.now() - start) / 1000)
}

/** Appends `count` lines with `append`; returns appends per second. */
async function appends(
  count: number,
  append: (line: string) => Promise<void> | void,
): Promise<number> {
  const start = performance.now()
  for (let i = 0; i < count; i++) {
    const done = append(`,\n"cursor":"${5_000_000 + 3 * i}"}`)
    if (done !== undefined) await done
  }
  return count / ((performance.now() - start) / 1000)
}

const directory = await mkdtemp(join(tmpdir(), 'venue-rx-checkpoint-bench-'))
let files = 0
const file = () => join(directory, `cursor-${++files}.json`)

interface Row {
  readonly name: string
  readonly saves: number
  readonly rate: number
}

try {
  const rows: Row[] = []
  const measure = async (name: string, saves: number, rate: () => Promise<number>) => {
    await rate() // warm-up
    rows.push({ name, saves, rate: await rate() })
  }
  await measure('memoryCheckpoint', SAVES, () => run(memoryCheckpoint<string>(), SAVES))
  await measure('before: temp file + rename per save', BEFORE_SAVES, () =>
    run(renameCheckpoint(file()), BEFORE_SAVES),
  )
  await measure('fileCheckpoint (journal)', SAVES, () => run(fileCheckpoint<string>(file()), SAVES))
  await measure('before, durable', DURABLE_SAVES, () =>
    run(renameCheckpoint(file(), true), DURABLE_SAVES),
  )
  await measure('fileCheckpoint, durable', DURABLE_SAVES, () =>
    run(fileCheckpoint<string>(file(), { durable: true }), DURABLE_SAVES),
  )
  await measure('append: writeSync on a kept fd', SAVES, async () => {
    const fd = openSync(file(), 'w')
    try {
      return await appends(SAVES, (line) => {
        writeSync(fd, line)
      })
    } finally {
      closeSync(fd)
    }
  })
  await measure('append: appendFileSync (open per save)', SAVES, () => {
    const path = file()
    return appends(SAVES, (line) => appendFileSync(path, line))
  })
  await measure('append: FileHandle, awaited writes', SAVES, async () => {
    const handle = await open(file(), 'w')
    try {
      return await appends(SAVES, async (line) => {
        await handle.write(line)
      })
    } finally {
      await handle.close()
    }
  })

  const memory = rows[0]?.rate ?? 1
  const before = rows[1]?.rate ?? 1
  const beforeDurable = rows[3]?.rate ?? 1
  console.log(`checkpoint saves, ${SAVES} (durable: ${DURABLE_SAVES}), directory ${tmpdir()}\n`)
  const header = ['checkpoint', 'saves', 'saves/s', 'to memory', 'to before']
  const table = rows.map((row, i) => [
    row.name,
    String(row.saves),
    Math.round(row.rate).toLocaleString('en-US'),
    (row.rate / memory).toPrecision(2),
    i === 4 || i === 3 ? (row.rate / beforeDurable).toFixed(1) : (row.rate / before).toFixed(1),
  ])
  printColumns(header, table)
} finally {
  await rm(directory, { recursive: true, force: true })
}
