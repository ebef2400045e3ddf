import { relative } from 'node:path'
import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Short files that run long, mostly waiting on their child processes (the compiler; the
 * fleet's relays and bots; the recipes): started first, whatever vitest knows of them.
 */
const START_FIRST = ['test/types.test.ts', 'test/fleet.test.ts', 'test/examples.test.ts']

/**
 * Seconds the longer files take on an idle 2-core machine (measured 2026-11-29), for the
 * order of a run vitest has no timings of its own for (a fresh clone, where it would order
 * by file size and leave some of these to the end of the run, on one worker while the
 * others idle). Longest first, then the rest; vitest's own timings win once it has them.
 */
const EXPECTED_SECONDS: Record<string, number> = {
  'relay-faults.test.ts': 10.2,
  'cli-demo.test.ts': 8.3,
  'polling-pipeline.test.ts': 6.5,
  'replay.test.ts': 5.6,
  'relay-cluster.test.ts': 4.9,
  'cursor-feed.test.ts': 4.6,
  'venue.test.ts': 4.4,
  'cli-relay.test.ts': 4.3,
  'package-contents.test.ts': 4.2,
  'cli-record.test.ts': 3.7,
  'readme.test.ts': 3.5,
  'fuzz-answers.test.ts': 3.4,
  'watch-order-live.test.ts': 3.3,
  'cli-commands.test.ts': 3.2,
  'watch-resources.test.ts': 3.1,
  'replay-cli.test.ts': 3.0,
  'fuzz-redaction.test.ts': 2.7,
  'undici-transport.test.ts': 2.6,
  'chaos.test.ts': 2.6,
  'relay.test.ts': 2.5,
  'relay-streams.test.ts': 2.5,
  'checkpoint.test.ts': 2.4,
  'watch-klines.test.ts': 2.3,
  'watch-depth-faults.test.ts': 2.2,
  'one-clock.test.ts': 2.1,
  'relay-balances.test.ts': 2.1,
  'cli-exits.test.ts': 2.0,
  'relay-publish.test.ts': 1.8,
  'watch-order-relay.test.ts': 1.8,
  'feeds-on-sight.test.ts': 1.7,
  'cli.test.ts': 1.7,
  'simulator-bursts.test.ts': 1.7,
  'catalogue.test.ts': 1.6,
  'simulator-market.test.ts': 1.6,
  'simulator-reproducible.test.ts': 1.5,
}

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const first = (file: TestSpecification) => {
      const at = START_FIRST.findIndex((name) => file.moduleId.endsWith(name))
      return at === -1 ? START_FIRST.length : at
    }
    const expectedMs = (file: TestSpecification) => {
      const name = relative(file.project.config.root, file.moduleId)
      const timed = this.ctx.cache.getFileTestResults(`${file.project.name}:${name}`)
      const guess = EXPECTED_SECONDS[name.replace(/^test\//, '')]
      return timed?.duration ?? (guess === undefined ? 0 : guess * 1000)
    }
    const sorted = await super.sort(files)
    return sorted
      .map((file, order) => ({ file, order, first: first(file), ms: expectedMs(file) }))
      .sort((a, b) => a.first - b.first || b.ms - a.ms || a.order - b.order)
      .map(({ file }) => file)
  }
}

// CI sets VITEST_JSON_REPORT so that .ci/run can print the plain "N passed, N failed" line.
const jsonReport = process.env['VITEST_JSON_REPORT']

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The CLI and the fleet scripts, transpiled once for the child processes tests start.
    globalSetup: ['test/global-setup.ts'],
    // The type tests (test/**/*.test-d.ts) are checked with the whole project by
    // test/types.test.ts (the compiler as a child process, beside the other tests):
    // `npx vitest run --typecheck` still reports them one by one.
    typecheck: {
      enabled: false,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
    // Much of a test's time is spent waiting on sockets, child processes and short real
    // intervals: four workers keep a 2-core machine's cores busy (with two they were idle a
    // third of the run; three left the run some 4 s longer).
    maxWorkers: 4,
    // A young generation of 64 MB (semi-space) instead of V8's default: the tests allocate
    // fast (bodies, records, snapshots), and fewer scavenges cost the workers less CPU.
    execArgv: ['--max-semi-space-size=64'],
    // Test files of a worker share its module cache: the import of the library and the
    // simulator is paid once per worker, not once per file (a third of the run before).
    // Every test restores what it changes (spies, timers, listeners) itself.
    isolate: false,
    // Each module's transform is kept on disk (node_modules/.experimental-vitest-cache),
    // keyed by a hash of its text, and read back by the next run instead of done again.
    experimental: { fsModuleCache: true },
    sequence: { sequencer: LongestFirst },
    testTimeout: 20_000,
    hookTimeout: 20_000,
    reporters: jsonReport ? ['default', ['json', { outputFile: jsonReport }]] : ['default'],
  },
})
