/**
 * Runs a benchmark's server in a child process (so that the load and the server each
 * get a core). The child prints one JSON line describing itself when ready and exits
 * when its stdin closes.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'

/** The child's own description, plus the process. */
export type ChildServer<I> = I & { readonly child: ChildProcessWithoutNullStreams }

/** Starts `script` (TypeScript, through tsx) with `args`; resolves with its first line, parsed. */
export async function startChildServer<I extends object>(
  script: string,
  args: readonly string[] = [],
): Promise<ChildServer<I>> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: 'pipe' })
  child.stderr.pipe(process.stderr)
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string]
  return { ...(JSON.parse(line) as I), child }
}

/** Closes the child's stdin and waits for it to exit. */
export async function stopChildServer(server: {
  readonly child: ChildProcessWithoutNullStreams
}): Promise<void> {
  const exited = once(server.child, 'exit')
  server.child.stdin.end()
  await exited
}
