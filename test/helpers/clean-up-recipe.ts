/**
 * The clean-up recipe of docs/relay.md, run as a reader would run it: its `sh` block, with
 * `NODES` set to the servers given and the keys under `prefix` instead of `venue-rx`.
 */
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { promisify } from 'node:util'

export async function runCleanUpRecipe(nodes: readonly string[], prefix: string): Promise<void> {
  const doc = readFileSync('docs/relay.md', 'utf8')
  const recipe = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)]
    .map(([, body]) => body as string)
    .find((body) => body.includes("--scan --pattern 'venue-rx:*'"))
  if (recipe === undefined) throw new Error('docs/relay.md has no clean-up recipe')
  const script = recipe
    .replace(/^NODES=.*$/m, `NODES='${nodes.join(' ')}'`)
    .replace("'venue-rx:*'", `'${prefix}:*'`)
  await promisify(execFile)('sh', ['-c', script])
}
