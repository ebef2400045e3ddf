import { type CursorPosition, isCursorPosition } from '../../src/index.js'

/**
 * The greatest cursor a checkpoint holds: the last item delivered above its watermark, or
 * the watermark (a plain cursor as it is).
 */
export function newestCursor<C>(saved: CursorPosition<C> | C | undefined): C | undefined {
  if (!isCursorPosition<C>(saved)) return saved
  return saved.above.at(-1) ?? saved.watermark
}
