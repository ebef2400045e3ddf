import { defineConfig } from 'vitest/config'

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
    // Most test time is spent waiting on sockets and short real intervals, not on the CPU:
    // two workers on a 2-core machine (vitest's default there is one).
    maxWorkers: 2,
    // Test files of a worker share its module cache: the import of the library and the
    // simulator is paid once per worker, not once per file (a third of the run before).
    // Every test restores what it changes (spies, timers, listeners) itself.
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 20_000,
    reporters: jsonReport ? ['default', ['json', { outputFile: jsonReport }]] : ['default'],
  },
})
