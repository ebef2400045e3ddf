import { createLogUpdate } from 'log-update'
import { integerOption, parseWithPositionals, quotedWords, UsageError } from './args.js'
import { DemoBoard, liveScreen } from './demo-board.js'
import type { DemoSession } from './demo-session.js'
import { type CliIo, untilStopped } from './io.js'
import { painter } from './style.js'

export const DEMO_USAGE = `Usage: venue-rx demo [options]

Starts the embedded venue simulator and reads it through venue-rx's streams: the order
book ladder (changed levels marked), the trade tape, a demo strategy's orders and fills,
balances, the mid price and signals, the health board with each stream's polls a second
and estimated staleness, and the request budget in use.
On a terminal the screen redraws in place until Ctrl-C; piped, it prints one line per
event for --seconds (default 10).

Options:
  --pool ID       pool to show (default 0)
  --seed N        the simulated market's seed (default 1)
  --tick-ms N     simulated ms per tick, also its real interval (default 250)
  --poll-ms N     longest wait between two polls of a stream (default 500); the
                  request budget is spent where the market moves
  --seconds N     stop after N seconds (0 = until Ctrl-C; default 0 on a terminal, 10 piped)
  --plain         one line per event even on a terminal
  --outage-every N  seconds between two outages of the trades route (default 20): it
                  answers 503 for a fifth of that, at most 2 s, first 2 s after the
                  start, so the health board shows a stream retrying and healing
  --no-faults     no outages
  -h, --help      this help
`

const DEFAULT_PIPED_SECONDS = 10
/** Frames per second at most on a terminal. */
const FRAME_MS = 200

/**
 * `venue-rx demo`: the embedded simulator read through the streams, as a live screen on
 * a terminal or event lines on a pipe.
 *
 * On a terminal the first frame is drawn at once, every panel waiting for its data, and
 * only then are the library, the simulator and the signals loaded (demo-session.ts): that
 * load is most of the start-up (seconds on a busy machine, under tsx), and the screen
 * stayed blank through it.
 */
export async function demoCommand(argv: readonly string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseWithPositionals(
    argv,
    ['pool', 'seed', 'tick-ms', 'poll-ms', 'seconds', 'outage-every'],
    ['plain', 'no-faults'],
  )
  if (values['help'] === true) {
    io.stdout.write(DEMO_USAGE)
    return
  }
  if (positionals.length > 0) {
    throw new UsageError(`demo takes no argument (got ${quotedWords(positionals)})`)
  }
  const stdout = io.stdout
  const live = stdout.isTTY === true && values['plain'] !== true
  const poolId = integerOption(values, 'pool', 0, 0, 1_000_000)
  const seconds = integerOption(values, 'seconds', live ? 0 : DEFAULT_PIPED_SECONDS, 0, 86_400)
  const settings = {
    poolId,
    seed: integerOption(values, 'seed', 1, 0, 2 ** 31 - 1),
    tickMs: integerOption(values, 'tick-ms', 250, 1, 60_000),
    pollIntervalMs: integerOption(values, 'poll-ms', 500, 50, 60_000),
    outageEveryMs:
      values['no-faults'] === true
        ? undefined
        : integerOption(values, 'outage-every', 20, 1, 3_600) * 1000,
  }
  // Ctrl-C, or a reader that went away (`| head`): the demo ends quietly either way.
  const stop = untilStopped(io)
  const board = new DemoBoard(`simulator starting...  pool ${poolId}`)
  // A terminal is a process's stdout.
  const screen = live ? createLogUpdate(stdout as NodeJS.WriteStream) : undefined
  const paint = painter(stdout, io.env)
  // Plain mode prints each event's line; live mode only redraws.
  const print = live
    ? () => {}
    : (line: string | readonly string[]) => {
        for (const l of typeof line === 'string' ? [line] : line) stdout.write(`${l}\n`)
      }
  let session: DemoSession | undefined
  let lastSummary = Date.now()
  const draw = () => {
    board.requestsPerSecond = session?.requestsPerSecond() ?? 0
    if (screen !== undefined) {
      const rows = stdout.rows ?? 24
      const frame = board.frame(paint, stdout.columns ?? 100, Date.now(), rows)
      // Every frame as tall as the terminal allows (a layout that changes as streams come
      // and go would leave old lines behind, or push the title off the screen).
      screen(liveScreen(frame, rows))
    } else if (Date.now() - lastSummary >= 1000) {
      lastSummary = Date.now()
      print(board.summary())
    }
  }
  let redraw: ReturnType<typeof setInterval> | undefined
  try {
    if (screen !== undefined) {
      draw()
      redraw = setInterval(draw, FRAME_MS)
    }
    const { startDemoSession } = await import('./demo-session.js')
    session = await startDemoSession(settings, board, print)
    lastSummary = Date.now()
    redraw ??= setInterval(draw, FRAME_MS)
    await (seconds === 0
      ? stop
      : Promise.race([stop, new Promise((resolve) => setTimeout(resolve, seconds * 1000).unref())]))
    if (!live) print(`done   ${session.totalRequests()} requests in all`)
  } catch (error) {
    // The failure's one line (an unknown pool, say) in place of the frame.
    screen?.clear()
    throw error
  } finally {
    clearInterval(redraw)
    // Leave the last frame on the screen, with the cursor back, below it.
    screen?.done()
    await session?.close()
  }
}
