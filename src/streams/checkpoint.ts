import { randomBytes } from 'node:crypto'
import { open, readFile, rename, unlink } from 'node:fs/promises'
import { dirname } from 'node:path'
import { VenueInputError } from '../errors/venue-input-error.js'

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
   * Flush each write to the disk before the rename (survives power loss, costs a disk
   * sync per item). Default false: the rename alone already survives a process crash.
   */
  readonly durable?: boolean
}

/**
 * A checkpoint in a JSON file, written atomically: each save goes to a temporary file
 * beside it, then replaces it by rename, so a crash mid-write leaves the previous
 * cursor. The file holds `{"cursor": ...}`.
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
  return {
    load: async () => {
      let text: string
      try {
        text = await readFile(path, 'utf8')
      } catch (error) {
        if ((error as { code?: unknown }).code === 'ENOENT') return undefined
        throw error
      }
      let parsed: unknown
      try {
        parsed = JSON.parse(text)
      } catch (error) {
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
      const cursor =
        typeof parsed === 'object' && parsed !== null
          ? (parsed as { cursor?: unknown }).cursor
          : undefined
      if (typeof cursor !== 'string' && typeof cursor !== 'number') {
        throw VenueInputError.quoting({
          argument: 'path',
          value: path,
          whole: true,
          render: (_, shown) => `fileCheckpoint: ${shown} holds no cursor`,
        })
      }
      return cursor as C
    },
    save: async (cursor) => {
      const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
      try {
        const file = await open(temporary, 'w')
        try {
          await file.writeFile(JSON.stringify({ cursor }))
          if (options.durable === true) await file.sync()
        } finally {
          await file.close()
        }
        await rename(temporary, path)
      } catch (error) {
        await unlink(temporary).catch(() => undefined)
        throw error
      }
      if (options.durable === true) await syncDirectory(dirname(path))
    },
  }
}

/** Makes a rename in `directory` durable (where the platform allows opening a directory). */
async function syncDirectory(directory: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined
  try {
    handle = await open(directory, 'r')
    await handle.sync()
  } catch {
    // Some platforms cannot sync a directory; the file itself was synced.
  } finally {
    await handle?.close()
  }
}
