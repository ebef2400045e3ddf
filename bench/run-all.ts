/**
 * `npm run bench`: every benchmark of bench/, one after the other (each in its own
 * process, so that one's heap and JIT do not colour the next), then one table of the
 * figures each reports against its target. Each script prints its own full table too.
 *
 *   npm run bench            all of them, about 9 minutes
 *   npm run bench -- depth   those whose file name contains "depth"
 *
 * The summary is also written, as a Markdown table headed by the date, the machine and
 * the Node version, to `bench/results.md` (not committed): docs/performance.md's
 * table is that file from one run on a quiet machine.
 */
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { printTable, type Summary } from './support/measure.js'

/**
 * The scripts with a target, in the order of docs/performance.md's table (feed-latency.ts
 * and long-numbers.ts, the newest, not in it yet); then freshness.ts, whose figures
 * (staleness against the square-root oracle) have no target yet.
 */
const SCRIPTS = [
  'depth-poll.ts',
  'stream-path.ts',
  'book-apply.ts',
  'signals.ts',
  'feed-backfill.ts',
  'checkpoint-save.ts',
  'shared-polling.ts',
  'feed-memory.ts',
  'relay.ts',
  'relay-memory.ts',
  'feed-latency.ts',
  'long-numbers.ts',
  'freshness.ts',
  'replay.ts',
]

async function run(script: string): Promise<{ summaries: Summary[]; output: string }> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', join(import.meta.dirname, script), '--json'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  let output = ''
  child.stdout.setEncoding('utf8')
  child.stdout.on('data', (chunk: string) => {
    output += chunk
    process.stdout.write(chunk.replace(/^bench-summary .*\n/gm, ''))
  })
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  if (code !== 0) throw new Error(`${script} exited with ${code}`)
  const summaries = [...output.matchAll(/^bench-summary (.*)$/gm)].map(
    ([, json]) => JSON.parse(json as string) as Summary,
  )
  return { summaries, output }
}

const filter = process.argv[2]
const rows: Summary[] = []
for (const script of SCRIPTS.filter((name) => filter === undefined || name.includes(filter))) {
  console.log(`\n=== ${script}`)
  rows.push(...(await run(script)).summaries)
}
const digits = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2))
const table = rows.map((row) => [
  row.figure,
  `${digits(row.value)} ${row.unit}`,
  row.target,
  row.met ? 'yes' : 'NO',
])
console.log('\n=== summary (this machine, this run)')
printTable([['figure', 'now', 'target', 'met'], ...table])

const cores = cpus()
const machine = `${cores.length} × ${cores[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`
const markdown = [
  `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine}${filter === undefined ? '' : ` (scripts matching "${filter}" only)`}:`,
  '',
  '| figure | now | target | met |',
  '|---|---|---|---|',
  ...table.map((cells) => `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`),
  '',
].join('\n')
const out = join(import.meta.dirname, 'results.md')
writeFileSync(out, markdown)
console.log(`\n(also as Markdown in ${out})`)
