import { defineConfig } from 'vitest/config'

// CI sets VITEST_JSON_REPORT so that .ci/run can print the plain "N passed, N failed" line.
const jsonReport = process.env['VITEST_JSON_REPORT']

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
    testTimeout: 20_000,
    hookTimeout: 20_000,
    reporters: jsonReport ? ['default', ['json', { outputFile: jsonReport }]] : ['default'],
  },
})
