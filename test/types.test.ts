/**
 * What the TypeScript compiler checks, run as one child process beside the other tests
 * (test/helpers/type-check.ts): the sources, the recipes and the type tests
 * (test/*.test-d.ts; the rest of test/ and bench/ are left to `npm run typecheck`, which CI
 * runs too), the TypeScript of the README and of docs/ against the sources, and an `@example` on
 * every public symbol.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { BUILT, ROOT } from './helpers/built.js'
import { cliOutcome } from './helpers/cli.js'
import type { TypeCheckReport } from './helpers/type-check.js'

let report: TypeCheckReport

beforeAll(async () => {
  const scratch = join(ROOT, 'node_modules', '.cache', `venue-rx-types-${process.pid}`)
  const child = spawn(
    process.execPath,
    [join(BUILT, 'test', 'helpers', 'type-check-process.js'), ROOT, scratch],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const { code, out, err } = await cliOutcome(child)
  if (code !== 0) throw new Error(`the type check exited with ${code}: ${err}`)
  report = JSON.parse(out) as TypeCheckReport
  // The compiler over some 800 files: 5 to 13 s of CPU (less when `npm run build` or an
  // earlier run checked the sources as they are), several times that on a busy machine.
}, 180_000)

describe('types', () => {
  it('the project has no type error (src, examples, the type tests)', () => {
    for (const dir of ['src', 'examples', 'test']) {
      expect(report.projectRoots[dir], dir).toBeGreaterThan(0)
    }
    // The benchmarks are npm run typecheck's (with the tests' own code).
    expect(report.projectRoots['bench']).toBeUndefined()
    expect(report.project.join('\n')).toBe('')
  })

  it('every TypeScript snippet of the README and docs/ compiles against the sources', () => {
    expect(report.snippetCounts['README.md']).toBeGreaterThan(6)
    // What moved from the README to docs/ is checked as it was there.
    for (const file of [
      'docs/streams.md',
      'docs/options.md',
      'docs/feeds.md',
      'docs/simulator.md',
    ]) {
      expect(report.snippetCounts[file], file).toBeGreaterThan(0)
    }
    expect(report.snippetCounts['docs/signals.md']).toBeGreaterThan(10)
    expect(report.snippets.join('\n')).toBe('')
  })

  it('every exported symbol of every entry point has a doc comment with an @example', () => {
    expect(report.exported).toBeGreaterThan(100)
    expect(report.undocumented.join('\n'), 'symbols without an @example').toBe('')
  })
})
