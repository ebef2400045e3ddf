import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs'
import { tradeDetailSchema } from '../schemas/trade-detail.js'
import { transferSchema } from '../schemas/transfer.js'
import { CliError } from './failure.js'

/** What `venue-rx export` can write. */
export const EXPORT_KINDS = ['trades', 'transfers', 'fills'] as const
export type ExportKind = (typeof EXPORT_KINDS)[number]

/** CSV columns of each kind, in a fixed order. */
const COLUMNS: Record<ExportKind, readonly string[]> = {
  trades: Object.keys(tradeDetailSchema.shape),
  transfers: Object.keys(transferSchema.shape),
  fills: [
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
  ],
}

/** One CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180). */
function csvField(value: unknown): string {
  const text = value === undefined || value === null ? '' : String(value)
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** An output file that takes one item per line, appended with one synchronous write. */
export interface Appender {
  /** Appends `item` as one line; returns when the line is written (synchronously). */
  append(item: object): void
  close(): void
  /** Whether the file held items (lines beside the CSV header) when it was opened. */
  readonly hadItems: boolean
}

/**
 * Opens `path` for appending NDJSON (`.ndjson`) or CSV (`.csv`). A new or empty CSV file
 * gets the header first; an existing one must start with the same header.
 */
export function openAppender(path: string, kind: ExportKind): Appender {
  const csv = path.endsWith('.csv')
  const columns = COLUMNS[kind]
  const header = columns.join(',')
  const fd = openSync(path, 'a+')
  let hadItems = false
  try {
    const size = fstatSync(fd).size
    if (size > 0) checkExisting(fd, path, size, csv ? header : undefined)
    else if (csv) writeSync(fd, `${header}\n`)
    hadItems = size > (csv ? header.length + 1 : 0)
  } catch (error) {
    closeSync(fd)
    throw error
  }
  const line = csv
    ? (item: object) => columns.map((c) => csvField((item as Record<string, unknown>)[c])).join(',')
    : (item: object) => JSON.stringify(item)
  return {
    // One write per line (O_APPEND): a line is never interleaved or written in parts.
    append: (item) => {
      writeSync(fd, `${line(item)}\n`)
    },
    close: () => closeSync(fd),
    hadItems,
  }
}

/** An existing file must end with a whole line and, for CSV, start with `header`. */
function checkExisting(fd: number, path: string, size: number, header: string | undefined): void {
  const last = Buffer.alloc(1)
  readSync(fd, last, 0, 1, size - 1)
  if (last[0] !== 0x0a) {
    throw new CliError(`${path} ends with a partial line`, 'remove that last line, then run again')
  }
  if (header === undefined) return
  const start = Buffer.alloc(Math.min(size, header.length + 1))
  readSync(fd, start, 0, start.length, 0)
  if (start.toString('utf8') !== `${header}\n`) {
    throw new CliError(
      `${path} does not start with the CSV header of this export`,
      'export to a new file or to the file this export wrote before',
    )
  }
}
