/**
 * A real terminal for CLI tests: a tmux server of its own (private socket), one window
 * running an interactive shell, read back with `capture-pane` as a person would see it.
 * The screen is read through one tmux client in control mode (`tmux -C`), not a tmux
 * process per look: a test polls the screen ten times a second, and each process started
 * from a test worker cost some 50 ms of its CPU.
 */
import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { promisify } from 'node:util'
import { ROOT } from './cli.js'

const run = promisify(execFile)
let servers = 0
/** The longest a tmux command may take to answer (a loaded machine answers within 1 s). */
const ANSWER_MS = 15_000
/** The longest the first command of a control client may take before another is tried. */
const FIRST_ANSWER_MS = 5_000

/** A terminal of `width` × `height` cells. */
export interface Terminal {
  /** Types `text` and presses Enter. */
  type(text: string): Promise<void>
  /** Presses keys by tmux name, e.g. `C-c`. */
  press(...keys: string[]): Promise<void>
  /** The visible screen, as text (`colours`: with its SGR colour codes). */
  screen(options?: { colours?: boolean }): Promise<string>
  /** Everything the window printed, scrolled-off lines too. */
  history(): Promise<string>
  /** Resolves with the screen once `test` holds on it; rejects after `ms`. */
  waitForScreen(test: (screen: string) => boolean, what: string, ms?: number): Promise<string>
  close(): Promise<void>
}

export async function openTerminal(width: number, height: number): Promise<Terminal> {
  servers += 1
  const socket = `venue-rx-test-${process.pid}-${servers}`
  // Bounded like every wait here: a tmux that stops answering fails the test with its
  // command named instead of holding it to the test's own timeout.
  const tmux = (...args: string[]) =>
    run('tmux', ['-L', socket, ...args], { cwd: ROOT, timeout: ANSWER_MS })
  await tmux(
    '-f',
    '/dev/null',
    'new-session',
    '-d',
    '-s',
    't',
    '-x',
    String(width),
    '-y',
    String(height),
    '-c',
    ROOT,
  )
  // The window keeps that size whatever clients attach (the control client below, or a
  // second one): a window resized under a running program moves what it drew (once, under
  // load, the demo's title went off the top), and no status line takes a row of it.
  await tmux('set-option', '-g', 'window-size', 'manual')
  await tmux('set-option', '-g', 'status', 'off')
  let control = controlClient(socket)
  // No %output notifications: the client is there to run commands, not to mirror the pane.
  // A control client once never answered this first command (a loaded full run: the test
  // hung until its own timeout, the pane showing the shell's prompt and nothing typed), so
  // it is bounded more tightly and, that once, a second client is attached in its place.
  try {
    await control.command('refresh-client -f no-output', FIRST_ANSWER_MS)
  } catch {
    control.end()
    await control.closed
    control = controlClient(socket)
    await control.command('refresh-client -f no-output')
  }
  const screen = (options: { colours?: boolean } = {}) =>
    control.command(`capture-pane -p ${options.colours ? '-e ' : ''}-t t`)
  return {
    type: async (text) => {
      await tmux('send-keys', '-t', 't', '-l', text)
      await tmux('send-keys', '-t', 't', 'Enter')
    },
    press: async (...keys) => {
      await tmux('send-keys', '-t', 't', ...keys)
    },
    screen,
    history: () => control.command('capture-pane -p -S - -t t'),
    async waitForScreen(test, what, ms = 10_000) {
      const deadline = Date.now() + ms
      let last = ''
      while (Date.now() < deadline) {
        last = await screen()
        if (test(last)) return last
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      throw new Error(`timed out after ${ms} ms waiting for ${what}; the screen:\n${last}`)
    },
    close: async () => {
      await tmux('kill-server').catch(() => undefined)
      // The server gone, its client ends; if the kill failed, the client is ended here.
      control.end()
      await control.closed
    },
  }
}

/**
 * A tmux client in control mode attached to session `t`: each command's answer comes
 * between `%begin` and `%end` lines (`%error` for a failed one), in the order the commands
 * were sent; the blocks of commands it did not send (flag 0) and notifications are skipped.
 */
function controlClient(socket: string): {
  /** Runs `line`; rejects after `ms` without an answer (ANSWER_MS by default). */
  command(line: string, ms?: number): Promise<string>
  /** Ends the client (a no-op once it has ended). */
  end(): void
  readonly closed: Promise<void>
} {
  const child = spawn('tmux', ['-L', socket, '-C', 'attach-session', '-t', 't'], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'ignore'],
  })
  // A client that ended (the server killed) fails its waiting commands, below; writes to it
  // are then refused quietly.
  child.stdin.on('error', () => {})
  child.on('error', () => {})
  const waiting: { resolve(text: string): void; reject(error: Error): void; line: string }[] = []
  let block: string[] | undefined
  let ours = false
  // Commands sent before the client is attached find no client: they wait for this.
  let attached: () => void = () => {}
  const ready = new Promise<void>((resolve) => {
    attached = resolve
  })
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith('%session-changed ')) attached()
    if (block === undefined) {
      const begin = /^%begin \d+ \d+ (\d+)$/.exec(line)
      if (begin !== null) {
        block = []
        ours = begin[1] === '1'
      }
      return
    }
    const end = /^%(end|error) \d+ \d+ \d+$/.exec(line)
    if (end === null) {
      block.push(line)
      return
    }
    const text = block.map((row) => `${row}\n`).join('')
    block = undefined
    if (!ours) return
    const next = waiting.shift()
    if (next === undefined) return
    if (end[1] === 'end') next.resolve(text)
    else next.reject(new Error(`tmux ${next.line}: ${text.trim()}`))
  })
  let ended = false
  const closed = once(child, 'close').then(() => {
    ended = true
    for (const next of waiting.splice(0)) next.reject(new Error(`tmux ${next.line}: client ended`))
  })
  return {
    command: (line, ms = ANSWER_MS) =>
      new Promise((resolve, reject) => {
        // From the call: the wait for the client to attach counts too.
        const timer = setTimeout(() => reject(new Error(`tmux ${line}: no answer in ${ms} ms`)), ms)
        const settle = () => clearTimeout(timer)
        void Promise.race([ready, closed]).then(() => {
          if (ended) {
            settle()
            reject(new Error(`tmux ${line}: client ended`))
            return
          }
          waiting.push({
            resolve: (text) => {
              settle()
              resolve(text)
            },
            reject: (error) => {
              settle()
              reject(error)
            },
            line,
          })
          child.stdin.write(`${line}\n`)
        })
      }),
    end: () => {
      if (!ended) child.kill()
    },
    closed,
  }
}
