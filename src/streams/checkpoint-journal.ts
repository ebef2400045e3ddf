import { randomBytes } from 'node:crypto'
import {
  closeSync,
  fdatasync,
  fstatSync,
  fsync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs'
import { open } from 'node:fs/promises'
import { dirname } from 'node:path'
import { type CursorPosition, isCursorPosition } from '../core/cursor-position.js'
import { VenueInputError } from '../errors/venue-input-error.js'

/*
 * The file of `fileCheckpoint`: one JSON object whose key `cursor` is repeated, one save
 * per line, the last one counting (as for `JSON.parse`, which keeps the last duplicate):
 *
 *   {"cursor":"5000",
 *   "cursor":"5003",
 *   "cursor":"5006"}
 *
 * A save writes `,\n"cursor":<value>}` over the closing brace (one positional write on a
 * descriptor kept open), so the file is whole JSON after every save and readers of the old
 * format (`{"cursor": ...}`, `JSON.parse(text).cursor`) still get the newest cursor. A
 * write cut short by a crash leaves a torn last entry, which `readCursorFile` skips: the
 * cursor before it counts. Past JOURNAL_LIMIT_BYTES the next save compacts: it writes
 * `{"cursor":<value>}` to a temporary file and renames it over the file (as every save
 * did before). The first save of each checkpoint object does the same, so appends only
 * ever follow entries this object wrote.
 *
 * A position with items delivered above its watermark is an array, the watermark first
 * (`null` for none): `"cursor":["5000","5003","5005"]`; one without is its plain cursor.
 */

/** Size past which a save rewrites the file instead of appending to it. */
export const JOURNAL_LIMIT_BYTES = 256 * 1024

/** A descriptor unused for this long is closed (the next save opens the file again). */
export const IDLE_CLOSE_MS = 1_000

/**
 * The disk syncs used by durable saves, as an object so that a test can count them.
 * @internal
 */
export const journalSync = {
  fdatasync: (fd: number): Promise<void> =>
    new Promise((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve()))),
  fsync: (fd: number): Promise<void> =>
    new Promise((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve()))),
}

/** How a cursor is written in the file; throws for what cannot be one. */
export function encodeCursor(cursor: unknown): string {
  if (typeof cursor === 'string') return JSON.stringify(cursor)
  if (typeof cursor === 'number' && Number.isFinite(cursor)) return JSON.stringify(cursor)
  throw new VenueInputError(
    'cursor',
    'fileCheckpoint: a cursor must be a string or a finite number',
  )
}

/**
 * How a position (or a plain cursor) is written in the file: its watermark alone when
 * nothing is above it, else `[watermark, ...above]`. Throws for what cannot be one.
 */
export function encodePosition(position: unknown): string {
  if (!isCursorPosition(position)) return encodeCursor(position)
  const { watermark, above } = position
  if (above.length === 0 && watermark !== undefined) return encodeCursor(watermark)
  let text = watermark === undefined ? '[null' : `[${encodeCursor(watermark)}`
  for (const cursor of above) text += `,${encodeCursor(cursor)}`
  return `${text}]`
}

/** The position an entry's value holds (a plain cursor as it is). */
function decodeEntry(
  value: unknown,
): string | number | CursorPosition<string | number> | undefined {
  if (typeof value === 'string' || typeof value === 'number') return value
  if (!Array.isArray(value) || value.length === 0) return undefined
  const [watermark, ...above] = value as unknown[]
  if (watermark !== null && typeof watermark !== 'string' && typeof watermark !== 'number') {
    return undefined
  }
  if (!above.every((each) => typeof each === 'string' || typeof each === 'number')) {
    return undefined
  }
  return { watermark: watermark ?? undefined, above: above as (string | number)[] }
}

/**
 * The cursor in the file at `path` (synchronously, so that no save of this process lands
 * between two reads); `undefined` when there is no file. A damaged file throws a
 * VenueInputError naming it.
 */
export function readCursorFile(
  path: string,
): string | number | CursorPosition<string | number> | undefined {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined
    throw error
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    const torn = beforeTornEntry(text)
    if (torn !== undefined) return torn
    // Never a silent restart from the beginning: a damaged file is an error.
    throw VenueInputError.quoting(
      {
        argument: 'path',
        value: path,
        whole: true,
        render: (_, shown) => `fileCheckpoint: ${shown} is not a checkpoint (not JSON)`,
      },
      { cause: error },
    )
  }
  const cursor = decodeEntry(
    typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as { cursor?: unknown }).cursor
      : undefined,
  )
  if (cursor === undefined) {
    throw VenueInputError.quoting({
      argument: 'path',
      value: path,
      whole: true,
      render: (_, shown) => `fileCheckpoint: ${shown} holds no cursor`,
    })
  }
  return cursor
}

/** A character of a JSON string (not a quote, backslash or control character), or an escape. */
const CHAR = String.raw`(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})`
const STRING = `"${CHAR}*"`
const NUMBER = String.raw`-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?`
const SCALAR = `(?:${STRING}|${NUMBER})`
/** A position's array: the watermark (or null), then the cursors above it. */
const ARRAY = String.raw`\[\s*(?:${SCALAR}|null)(?:\s*,\s*${SCALAR})*\s*\]`
/** One whole entry and what follows it: `,` (another entry) or `}` (the end). */
const ENTRY = new RegExp(String.raw`\s*"cursor"\s*:\s*(${SCALAR}|${ARRAY})\s*([,}])`, 'y')
/** A scalar a save writes, cut anywhere (a string maybe in an escape). */
const TORN_SCALAR = String.raw`(?:"${CHAR}*(?:\\(?:u[0-9a-fA-F]{0,3})?)?"?|-?\d*(?:\.\d*)?(?:[eE][+-]?\d*)?)`
/** The value a save writes, cut anywhere, maybe its brace: a scalar or a position's array. */
const TORN_VALUE = new RegExp(
  String.raw`^(?:${TORN_SCALAR}|\[(?:(?:${SCALAR}|null),)*(?:n(?:u(?:ll?)?)?|null\]?|${TORN_SCALAR}\]?))\}?$`,
)
const ENTRY_HEAD = '\n"cursor":'

/**
 * The cursor of the last whole entry of a file whose last save was cut short (not JSON);
 * `undefined` when the text is not that (damaged: an error for the caller). An entry is
 * whole once the comma of the next save or the closing brace follows it; what comes after
 * the last whole entry must be the start of one save (zero bytes past the end of a file
 * cut by a power loss are ignored).
 */
function beforeTornEntry(
  text: string,
): string | number | CursorPosition<string | number> | undefined {
  const start = /^\s*\{/.exec(text)
  if (start === null) return undefined
  ENTRY.lastIndex = start[0].length
  let last: string | number | CursorPosition<string | number> | undefined
  let end = 0
  for (;;) {
    const entry = ENTRY.exec(text)
    if (entry === null) break
    last = decodeEntry(JSON.parse(entry[1] as string))
    end = ENTRY.lastIndex
    if (entry[2] === '}') break
  }
  if (last === undefined) return undefined
  const rest = text.slice(end).replace(/\0+$/, '')
  if (rest.length <= ENTRY_HEAD.length) return ENTRY_HEAD.startsWith(rest) ? last : undefined
  return rest.startsWith(ENTRY_HEAD) && TORN_VALUE.test(rest.slice(ENTRY_HEAD.length))
    ? last
    : undefined
}

/** Writes of one checkpoint object to its file. */
export interface CursorFileWriter {
  /** Writes `value` (from {@link encodeCursor}) before it returns (to the OS, not the disk). */
  write(value: string): void
  /** Writes `value` and syncs it to the disk; calls run one after the other. */
  writeDurable(value: string): Promise<void>
}

/**
 * The writer of the checkpoint file at `path`. Its descriptor is opened by the first save,
 * closed after {@link IDLE_CLOSE_MS} without a save (by an unref'd timer, which keeps no
 * process alive) and opened again by the next save.
 */
export function cursorFileWriter(path: string): CursorFileWriter {
  /** The file at `path` as this object last wrote it, while open. */
  let fd: number | undefined
  /** Its size in bytes (the closing brace is the last one). */
  let size = 0
  /** Its identity, to open it again after an idle close: dev 0 and ino 0 before any save. */
  let dev = 0
  let ino = 0
  let used = false
  let timer: NodeJS.Timeout | undefined
  /** Durable writes queued or running (the descriptor is in use by the thread pool). */
  let pending = 0
  let queue: Promise<void> = Promise.resolve()
  let buffer = Buffer.allocUnsafe(256)

  /** Puts `text` in `buffer`; returns its length in bytes. */
  const encode = (text: string): number => {
    if (text.length * 3 > buffer.length) buffer = Buffer.allocUnsafe(text.length * 3)
    return buffer.write(text, 0)
  }

  const writeAll = (to: number, length: number, position: number): void => {
    let done = 0
    while (done < length) {
      done += writeSync(to, buffer, done, length - done, position + done)
    }
  }

  const idle = (): void => {
    if (used) {
      used = false
      return
    }
    if (pending === 0) release()
  }

  const release = (): void => {
    if (timer !== undefined) clearInterval(timer)
    timer = undefined
    if (fd === undefined) return
    try {
      closeSync(fd)
    } catch {
      // Nothing was left to write through it.
    }
    fd = undefined
  }

  /** Opens the file again after an idle close, if it is still the one this object wrote. */
  const reopen = (): boolean => {
    if (ino === 0 && dev === 0) return false
    let again: number
    try {
      again = openSync(path, 'r+')
    } catch {
      return false
    }
    try {
      const stat = fstatSync(again)
      const last = Buffer.alloc(1)
      if (
        stat.dev === dev &&
        stat.ino === ino &&
        stat.size === size &&
        readSync(again, last, 0, 1, size - 1) === 1 &&
        last[0] === 0x7d // '}'
      ) {
        fd = again
        watch()
        return true
      }
    } catch {
      // Replaced below.
    }
    closeSync(again)
    return false
  }

  const watch = (): void => {
    used = true
    if (timer !== undefined) return
    timer = setInterval(idle, IDLE_CLOSE_MS)
    timer.unref()
  }

  /** Writes `{"cursor":value}` to a new temporary file beside `path`. */
  const prepare = (value: string): { temporary: string; next: number; length: number } => {
    const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
    const next = openSync(temporary, 'wx')
    try {
      const length = encode(`{"cursor":${value}}`)
      writeAll(next, length, 0)
      return { temporary, next, length }
    } catch (error) {
      abandon(temporary, next)
      throw error
    }
  }

  const abandon = (temporary: string, next: number): void => {
    try {
      closeSync(next)
      unlinkSync(temporary)
    } catch {
      // Renamed already.
    }
  }

  /** Renames the temporary file over `path` and keeps it open for the next saves. */
  const commit = (temporary: string, next: number, length: number): void => {
    // The old file closed first (where an open file cannot be replaced); should the rename
    // fail, the next save opens it again.
    release()
    try {
      renameSync(temporary, path)
    } catch (error) {
      abandon(temporary, next)
      throw error
    }
    const stat = fstatSync(next)
    fd = next
    size = length
    dev = stat.dev
    ino = stat.ino
    watch()
  }

  /** Replaces the file by `{"cursor":value}` (a crash leaves one file or the other, whole). */
  const replace = (value: string): void => {
    const { temporary, next, length } = prepare(value)
    commit(temporary, next, length)
  }

  /** {@link replace} with the new file synced before the rename, the directory after. */
  const replaceDurable = async (value: string): Promise<void> => {
    const { temporary, next, length } = prepare(value)
    try {
      await journalSync.fsync(next)
    } catch (error) {
      abandon(temporary, next)
      throw error
    }
    commit(temporary, next, length)
    await syncDirectory(dirname(path))
  }

  /**
   * Appends `value` over the closing brace when the file is open (or opens again) and stays
   * under the limit; returns the descriptor written to, or `undefined` when it did not.
   */
  const append = (value: string): number | undefined => {
    if (fd === undefined && !reopen()) return undefined
    const length = encode(`,${ENTRY_HEAD}${value}}`)
    if (size + length - 1 > JOURNAL_LIMIT_BYTES) return undefined
    const to = fd as number
    try {
      // The file is whole JSON again once this one write is done.
      writeAll(to, length, size - 1)
    } catch (error) {
      // Maybe written in part: the next save replaces the file rather than append to it.
      release()
      dev = 0
      ino = 0
      throw error
    }
    size += length - 1
    used = true
    return to
  }

  return {
    write: (value) => {
      if (append(value) === undefined) replace(value)
    },
    writeDurable: (value) => {
      pending += 1
      const run = queue.then(async () => {
        try {
          const to = append(value)
          if (to === undefined) await replaceDurable(value)
          else await journalSync.fdatasync(to)
        } finally {
          pending -= 1
        }
      })
      queue = run.catch(() => undefined)
      return run
    },
  }
}

/** Makes a rename in `directory` durable (where the platform allows opening a directory). */
async function syncDirectory(directory: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined
  try {
    handle = await open(directory, 'r')
    await journalSync.fsync(handle.fd)
  } catch {
    // Some platforms cannot sync a directory; the file itself was synced.
  } finally {
    await handle?.close()
  }
}
