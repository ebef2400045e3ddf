/**
 * The recipes in examples/ print what they promise. Each runs as a user runs it
 * (`npx tsx examples/<name>.ts`), minus tsx's start-up: as plain `node` on its bundle from
 * test/global-setup.ts, in a process of its own, its environment variables set, what it
 * prints on stdout read line by line. The recipes import `venue-rx` as a project that
 * installed the package does; tsconfig.json's `paths` map it to the sources here, for
 * tsc, tsx and that bundle alike.
 */
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startSimulator } from '../src/simulator/index.js'
import { BUILT, ROOT } from './helpers/built.js'
import { onCleanup, runCleanups } from './helpers/cleanups.js'
import { cliOutcome } from './helpers/cli.js'

afterEach(() => runCleanups())

/**
 * Runs `examples/<name>.ts` (its bundle) to its end and resolves to what it printed on
 * stdout. It must exit with code 0 and print nothing on stderr.
 */
async function example(name: string, env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, [join(BUILT, 'examples', `${name}.js`)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const { code, out, err } = await cliOutcome(child)
  expect({ name, code, err }).toEqual({ name, code: 0, err: '' })
  return out
}

describe('examples', () => {
  it('for-await-loop prints five books and five trades, then ends', async () => {
    const out = await example('for-await-loop')
    expect(out.match(/^book \d+: bid [\d.]+ x [\d.]+ {2}ask [\d.]+ x [\d.]+$/gm)).toHaveLength(5)
    expect(out.match(/^trade: (buy|sell) [\d.]+ at [\d.]+$/gm)).toHaveLength(5)
  })

  it('fill-tracker follows its order through three fills to done', async () => {
    const out = await example('fill-tracker')
    expect(out.match(/^fill: 0\.0100 at [\d.]+ as maker/gm)).toHaveLength(3)
    expect(out).toMatch(/^done: filled, filled 0\.03 at [\d.]+$/m)
  })

  it('quick-start reads a venue given by VENUE_URL and VENUE_API_KEY', async () => {
    const sim = await startSimulator({ seed: 1, clock: 'manual' })
    onCleanup(() => sim.close())
    const out = await example('quick-start', { VENUE_URL: sim.url, VENUE_API_KEY: sim.apiKey })
    expect(out).toMatch(/^server time \d{4}-\d\d-\d\dT/m)
    expect(out).toMatch(/^best bid \[/m)
  })

  it('test-your-bot moves the simulator and reads it under faults', async () => {
    const out = await example('test-your-bot')
    expect(out).toMatch(/open orders, first page of \d+ own trades/)
    expect(out).toMatch(/50 balance reads under faults:/)
  })

  it('spread-alert prints spreads in bps and an alert above 4 bps, at most three', async () => {
    const out = await example('spread-alert')
    expect(out).toMatch(/^spread \d+(\.\d+)? bps$/m)
    const alerts = out.match(/^ALERT: spread (\d+(?:\.\d+)?) bps > 4 bps$/gm) ?? []
    expect(alerts.length).toBeGreaterThanOrEqual(1)
    expect(alerts.length).toBeLessThanOrEqual(3)
    for (const alert of alerts) expect(Number(alert.split(' ')[2])).toBeGreaterThan(4)
    const summary = out.match(/^(\d+) alerts in (\d+) books$/m)
    expect(Number(summary?.[1])).toBe(alerts.length)
    expect(Number(summary?.[2])).toBeLessThanOrEqual(60)
  })

  it('balance-watcher shows the balances, then retrying under faults, then ok', async () => {
    const lines = (await example('balance-watcher')).split('\n')
    expect(
      lines.filter((line) => /^balance added +\S+ +[\d.]+ \(locked [\d.]+\)$/.test(line)),
    ).not.toHaveLength(0)
    const faultsOn = lines.indexOf('faults on: errorRate 0.5')
    const retrying = lines.findIndex((line) =>
      /^health watchBalances\(\) retrying: attempt \d+, VENUE_\w+, next try in \d+ ms$/.test(line),
    )
    const faultsOff = lines.indexOf('faults off')
    const ok = lines.lastIndexOf('health watchBalances() ok')
    expect(faultsOn).toBeGreaterThan(0)
    expect(retrying).toBeGreaterThan(faultsOn)
    expect(faultsOff).toBeGreaterThan(retrying)
    expect(ok).toBeGreaterThan(faultsOff)
    expect(lines).not.toContain('time is up')
  })

  it('backtest-ema replays its recording twice with the same crosses', async () => {
    const out = await example('backtest-ema')
    const runs = out.match(/^replay \d: .*$/gm) ?? []
    expect(runs).toHaveLength(2)
    expect(runs[1]?.replace('replay 2', 'replay 1')).toBe(runs[0])
  })

  it('vwap-crossover prints the same four crosses of a 10 s and a 40 s VWAP', async () => {
    const out = await example('vwap-crossover')
    const crosses = out.match(/^cross-(up|down): fast VWAP [\d.]+, slow VWAP [\d.]+$/gm) ?? []
    expect(out).toMatch(/^4 crosses$/m)
    expect(crosses.map((line) => line.split(':')[0])).toEqual([
      'cross-up',
      'cross-down',
      'cross-up',
      'cross-down',
    ])
    // The crosses follow the trades' own times on a seeded market: the same every run,
    // unless a poll came so late that trades were missed (printed as a gap line).
    if (!/^gap: /m.test(out)) {
      expect(crosses[0]).toBe('cross-up: fast VWAP 1.045991, slow VWAP 1.045961')
      expect(crosses[3]).toBe('cross-down: fast VWAP 1.046027, slow VWAP 1.046079')
    }
  })

  it('accounting-export writes every fill once, and its second run appends nothing', async () => {
    const out = await example('accounting-export')
    const first = out.match(/^run 1: (\d+) fills appended, (\d+) lines in (\S+fills\.csv)$/m)
    const second = out.match(/^run 2: (\d+) fills appended, (\d+) lines in (\S+fills\.csv)$/m)
    expect(Number(first?.[1])).toBeGreaterThan(100) // more than one page: a real backfill
    expect(Number(first?.[2])).toBe(Number(first?.[1]) + 1) // the header and one line a fill
    expect(second?.[1]).toBe('0')
    expect(second?.[2]).toBe(first?.[2])
    expect(second?.[3]).toBe(first?.[3])
    expect(existsSync(dirname(first?.[3] ?? '.'))).toBe(false) // its temporary directory is gone
    expect(out).toMatch(
      /^first line: \d+,\d{4}-\d\d-\d\dT[\d:.]+Z,0,\d+,(buy|sell),(maker|taker),/m,
    )
  })

  it('import venue-rx by the names package.json exports, mapped to the sources by tsconfig paths', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
    // tsconfig.json may hold comments: they go before it is parsed.
    const tsconfig = JSON.parse(
      readFileSync(join(ROOT, 'tsconfig.json'), 'utf8').replace(/^\s*\/\/.*$/gm, ''),
    )
    // Each entry point of the package, its name and its source: ./dist/x.js is ./src/x.ts.
    const entries = Object.entries(pkg.exports as Record<string, { default?: string }>)
      .filter(([, target]) => target.default?.startsWith('./dist/'))
      .map(([key, target]) => [
        `venue-rx${key.slice(1)}`,
        [target.default?.replace(/^\.\/dist\//, './src/').replace(/\.js$/, '.ts')],
      ])
    expect(tsconfig.compilerOptions.paths).toEqual(Object.fromEntries(entries))
    for (const file of readdirSync(join(ROOT, 'examples')).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(join(ROOT, 'examples', file), 'utf8')
      const imports = [...text.matchAll(/^import [^;]*? from '([^']+)'/gms)].map((m) => m[1])
      for (const name of imports) {
        expect(
          name?.startsWith('node:') ||
            name === 'rxjs' ||
            Object.hasOwn(tsconfig.compilerOptions.paths, name ?? ''),
          `${file} imports ${name}`,
        ).toBe(true)
      }
    }
  })
})
