import type { CursorPosition } from '../core/cursor-position.js'
import { VenueInputError } from '../errors/venue-input-error.js'
import { cursorFileWriter, encodePosition, readCursorFile } from './checkpoint-journal.js'

/**
 * Where a cursor feed keeps its place: `load()` at start, `save(position)` after each
 * delivered item, with the feed's {@link CursorPosition} (its watermark and the items
 * delivered above it). A restart with the same store resumes with the next item, and
 * delivers an item the venue showed late once. `load()` may also return a plain cursor (a
 * store written before positions): the feed resumes after it.
 *
 * @example
 * ```ts
 * import type { Checkpoint, CursorPosition } from 'venue-rx'
 *
 * // a checkpoint in Redis: any object with load and save will do
 * const checkpoint: Checkpoint<string> = {
 *   load: async () => {
 *     const text = await redis.get('fills:position')
 *     return text === null ? undefined : (JSON.parse(text) as CursorPosition<string>)
 *   },
 *   save: async (position) => {
 *     await redis.set('fills:position', JSON.stringify(position))
 *   },
 * }
 * venue.watchFills({ checkpoint }).subscribe((fill) => ledger.record(fill))
 * ```
 */
export interface Checkpoint<C> {
  /** The saved position (or a plain cursor), or `undefined` when nothing was saved yet. */
  load(): Promise<CursorPosition<C> | C | undefined> | CursorPosition<C> | C | undefined
  /** Keeps `position`; the feed waits for it before delivering the next item. */
  save(position: CursorPosition<C>): Promise<void> | void
}

/**
 * A checkpoint in memory (for tests, or for a process that keeps its feeds alive). Its
 * `save` takes a plain cursor too.
 *
 * @example
 * ```ts
 * const checkpoint = memoryCheckpoint<string>()
 * venue.watchMyTrades({ checkpoint }).subscribe(book)
 * // later: checkpoint.current, e.g. { watermark: '1041', above: ['1043'] }
 * ```
 */
export function memoryCheckpoint<C>(initial?: C | CursorPosition<C>): Checkpoint<C> & {
  readonly current: CursorPosition<C> | C | undefined
  save(position: CursorPosition<C> | C): void
} {
  let current = initial
  return {
    get current() {
      return current
    },
    load: () => current,
    save: (position) => {
      current = position
    },
  }
}

/**
 * Options of {@link fileCheckpoint}.
 *
 * @example
 * ```ts
 * import { fileCheckpoint } from 'venue-rx'
 *
 * // sync each save to the disk: the cursor survives a power cut too
 * const checkpoint = fileCheckpoint<string>('./fills.cursor.json', { durable: true })
 * venue.watchFills({ checkpoint })
 * ```
 */
export interface FileCheckpointOptions {
  /**
   * Syncs each save to the disk before the feed goes on (survives power loss, costs a disk
   * sync per item: `fdatasync` of the file; a rewrite is synced before its rename, and the
   * directory after it). Default false: each save is in the OS before the next item is
   * delivered, which already survives a crash of the process.
   */
  readonly durable?: boolean
}

/**
 * A checkpoint in a JSON file. Each save appends one line, `"cursor":<position>}`, over the
 * closing brace (one write on a file descriptor kept open), so the file is JSON after every
 * save, the key repeated and the last one counting, as for `JSON.parse`. A position with
 * nothing above its watermark is written as the plain cursor (`"cursor":"5003"`), else as
 * an array, the watermark first (`"cursor":["5000","5003","5005"]`, `null` for none). A
 * crash mid-write leaves that last entry torn; `load()` skips it and returns the position
 * before, so a crash costs at most the one item being delivered. Past 256 KiB, and on the
 * first save of each checkpoint object, a save writes `{"cursor": ...}` to a temporary file
 * beside it and renames it over the file instead. A file holding a plain cursor loads as
 * it is; a file that is not a checkpoint is an error, never a silent restart from the
 * beginning. Without `durable`, a save is written (to the OS) when `save` returns, which
 * returns nothing. The descriptor is closed after a second without a save
 * (the next save opens the file again) and keeps no process alive. One checkpoint object
 * per file at a time. Its `save` takes a plain cursor too.
 *
 * @example
 * ```ts
 * venue.watchTransfers({ checkpoint: fileCheckpoint('./transfers.cursor.json') })
 * ```
 */
export function fileCheckpoint<C extends string | number>(
  path: string,
  options: FileCheckpointOptions = {},
): Checkpoint<C> & { save(position: CursorPosition<C> | C): Promise<void> | void } {
  if (typeof path !== 'string' || path === '') {
    throw new VenueInputError('path', 'fileCheckpoint: path must be a non-empty string')
  }
  const writer = cursorFileWriter(path)
  return {
    // Read synchronously (in a promise), so no save of this process lands between reads.
    load: async () => readCursorFile(path) as CursorPosition<C> | C | undefined,
    // Not durable, a save is done when it returns (nothing to wait for: the feed goes on at
    // once); a failure is a rejected promise, as before.
    save:
      options.durable === true
        ? (position) => {
            let value: string
            try {
              value = encodePosition(position)
            } catch (error) {
              return Promise.reject(error)
            }
            return writer.writeDurable(value)
          }
        : (position) => {
            try {
              writer.write(encodePosition(position))
            } catch (error) {
              return Promise.reject(error)
            }
            return undefined
          },
  }
}
