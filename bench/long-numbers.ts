/**
 * What a very long number text in a number field costs: the body `{"rate":<text>}` read
 * as the REST layer reads it (`parseJsonExact`, which checks that each number is held
 * exactly by a double), against `JSON.parse` of the same body, for fractions of 6,000 and
 * of 60,000 zeros. Linear work costs about the same per digit at both lengths; quadratic
 * work costs ten times as much per digit at the longer one.
 *
 *   npx tsx bench/long-numbers.ts
 */
import { parseJsonExact } from '../src/rest/parse-json-exact.js'
import { medianMicros, printColumns, SUMMARY_ONLY, summaryLine } from './support/measure.js'

const LENGTHS = [6_000, 60_000] as const

/** The shapes of the REST tests: two refused (not held exactly by a double), one exactly 1. */
function texts(zeros: number): Record<string, string> {
  const run = '0'.repeat(zeros)
  return {
    '1.(n zeros)1': `1.${run}1`,
    '1e-(n)': `1e-${zeros}`,
    '0.(n zeros)1e(n+1)': `0.${run}1e${zeros + 1}`,
  }
}

function parseOrRefuse(body: string): void {
  try {
    parseJsonExact(body)
  } catch {
    // An inexact number is refused: that is the work measured.
  }
}

const perDigit: Record<string, Record<number, { exact: number; plain: number }>> = {}
for (const zeros of LENGTHS) {
  for (const [shape, text] of Object.entries(texts(zeros))) {
    const body = `{"rate":${text}}`
    const times = medianMicros(
      { exact: () => parseOrRefuse(body), plain: () => JSON.parse(body) },
      { batches: 9, batchMs: 30, warmupMs: 200 },
    )
    const row = perDigit[shape] ?? {}
    perDigit[shape] = row
    row[zeros] = {
      exact: ((times['exact'] ?? Number.NaN) * 1000) / body.length,
      plain: ((times['plain'] ?? Number.NaN) * 1000) / body.length,
    }
  }
}

const rows: string[][] = []
const growths: number[] = []
for (const [shape, byLength] of Object.entries(perDigit)) {
  const short = byLength[LENGTHS[0]]
  const long = byLength[LENGTHS[1]]
  if (short === undefined || long === undefined) continue
  const growth = long.exact / short.exact
  growths.push(growth)
  rows.push([
    shape,
    short.exact.toFixed(1),
    long.exact.toFixed(1),
    `${(long.exact / long.plain).toFixed(1)}x`,
    `${growth.toFixed(2)}x`,
  ])
}

const worst = Math.max(...growths)
if (SUMMARY_ONLY) {
  console.log(
    summaryLine({
      figure: 'long number texts: cost per digit, 60,000 against 6,000 zeros',
      value: Number(worst.toFixed(2)),
      unit: 'x',
      target: '<= 2x (linear)',
      met: worst <= 2,
    }),
  )
} else {
  printColumns(
    [
      'number text',
      'ns/char, 6,000 zeros',
      'ns/char, 60,000 zeros',
      'x JSON.parse (60,000)',
      'per char, 60k / 6k',
    ],
    rows,
  )
  console.log(`\nlinear when the last column is near 1x (quadratic work would be near 10x)`)
}
