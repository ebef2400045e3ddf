import { VenueInputError } from '../errors/venue-input-error.js'
import { cursorFileWriter, encodeCursor, readCursorFile } from './checkpoint-journal.js'

/**
 * Where a cursor feed keeps its place: `load()` at start, `save(cursor)` after each
 * delivered item. A restart with the same store resumes with the next item.
 *
 * @example
 * ```ts
 * import type { Checkpoint } from 'venue-rx'
 *
 * // a checkpoint in Redis: any object with load and save will do
 * const checkpoint: Checkpoint<string> = {
 *   load: async () => (await redis.get('fills:cursor')) ?? undefined,
 *   save: async (cursor) => {
 *     await redis.set('fills:cursor', cursor)
 *   },
 * }
 * venue.watchFills({ checkpoint }).subscribe((fill) => ledger.record(fill))
 * ```
 */
export interface Checkpoint<C> {
  /** The saved cursor, or `undefined` when nothing was saved yet. */
  load(): Promise<C | undefined> | C | undefined
  /** Keeps `cursor`; the feed waits for it before delivering the next item. */
  save(cursor: C): Promise<void> | void
}

/**
 * A checkpoint in memory (for tests, or for a process that keeps its feeds alive).
 *
 * @example
 * ```ts
 * const checkpoint = memoryCheckpoint<string>()
 * venue.watchMyTrades({ checkpoint }).subscribe(book)
 * // later: checkpoint.current === global_seq of the last trade delivered
 * ```
 */
export function memoryCheckpoint<C>(
  initial?: C,
): Checkpoint<C> & { readonly current: C | undefined } {
  let current = initial
  return {
    get current() {
      return current
    },
    load: () => current,
    save: (cursor) => {
      current = cursor
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
 * A checkpoint in a JSON file. Each save appends one line, `"cursor":<value>}`, over the
 * closing brace (one write on a file descriptor kept open), so the file is JSON after every
 * save, the key repeated and the last one counting, as for `JSON.parse`:
 * `{"cursor":"5000",` / `"cursor":"5003"}`. A crash mid-write leaves that last entry torn;
 * `load()` skips it and returns the cursor before, so a crash costs at most the one item
 * being delivered. Past 256 KiB, and on the first save of each checkpoint object, a save
 * writes `{"cursor": ...}` to a temporary file beside it and renames it over the file
 * instead. Files of the earlier format (`{"cursor": ...}` alone) load as they are; a file
 * that is not a checkpoint is an error, never a silent restart from the beginning. Without
 * `durable`, a save is written (to the OS) when `save` returns, which returns nothing. The
 * descriptor is closed after a second without a save (the next save opens the file again)
 * and keeps no process alive. One checkpoint object per file at a time.
 *
 * @example
 * ```ts
 * venue.watchTransfers({ checkpoint: fileCheckpoint('./transfers.cursor.json') })
 * ```
 */
export function fileCheckpoint<C extends string | number>(
  path: string,
  options: FileCheckpointOptions = {},
): Checkpoint<C> {
  if (typeof path !== 'string' || path === '') {
    throw new VenueInputError('path', 'fileCheckpoint: path must be a non-empty string')
  }
  const writer = cursorFileWriter(path)
  return {
    // Read synchronously (in a promise), so no save of this process lands between reads.
    load: async () => readCursorFile(path) as C | undefined,
    // Not durable, a save is done when it returns (nothing to wait for: the feed goes on at
    // once); a failure is a rejected promise, as before.
    save:
      options.durable === true
        ? (cursor) => {
            let value: string
            try {
              value = encodeCursor(cursor)
            } catch (error) {
              return Promise.reject(error)
            }
            return writer.writeDurable(value)
          }
        : (cursor) => {
            try {
              writer.write(encodeCursor(cursor))
            } catch (error) {
              return Promise.reject(error)
            }
            return undefined
          },
  }
}
