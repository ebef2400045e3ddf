import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Short files that run long, mostly waiting on their child processes (the compiler; the
 * fleet's relays and bots; the recipes): started first. vitest orders files by the durations of the last
 * run, or by size on a fresh clone, which put these last, the compiler's 10 s alone at the
 * end of the run.
 */
const START_FIRST = ['test/types.test.ts', 'test/fleet.test.ts', 'test/examples.test.ts']

class LongRunningFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = START_FIRST.findIndex((name) => file.moduleId.endsWith(name))
      return at === -1 ? START_FIRST.length : at
    }
    const sorted = await super.sort(files)
    return sorted
      .map((file, order) => ({ file, order }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.order - b.order)
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
    sequence: { sequencer: LongRunningFirst },
    testTimeout: 20_000,
    hookTimeout: 20_000,
    reporters: jsonReport ? ['default', ['json', { outputFile: jsonReport }]] : ['default'],
  },
})
