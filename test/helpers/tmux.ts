/**
 * A real terminal for CLI tests: a tmux server of its own (private socket), one window
 * running an interactive shell, read back with `capture-pane` as a person would see it.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { ROOT } from './cli.js'

const run = promisify(execFile)
let servers = 0

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
  const tmux = (...args: string[]) => run('tmux', ['-L', socket, ...args], { cwd: ROOT })
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
  const screen = async (options: { colours?: boolean } = {}) =>
    (await tmux('capture-pane', '-p', ...(options.colours ? ['-e'] : []), '-t', 't')).stdout
  return {
    type: async (text) => {
      await tmux('send-keys', '-t', 't', '-l', text)
      await tmux('send-keys', '-t', 't', 'Enter')
    },
    press: async (...keys) => {
      await tmux('send-keys', '-t', 't', ...keys)
    },
    screen,
    history: async () => (await tmux('capture-pane', '-p', '-S', '-', '-t', 't')).stdout,
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
    },
  }
}
