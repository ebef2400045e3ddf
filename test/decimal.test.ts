import { describe, expect, it } from 'vitest'
import {
  addDecimal,
  compareDecimal,
  compareValidDecimals,
  halfDecimal,
  isDecimal,
  isZeroDecimal,
  multiplyDecimal,
  normalizeDecimal,
  subtractDecimal,
} from '../src/decimal.js'
import { mulberry32 } from './helpers/random.js'

const SEED = 20_240_601
const CASES = 1_000

/** A decimal as an exact fraction units / 10^scale, parsed independently of the code under test. */
interface Ref {
  readonly units: bigint
  readonly scale: number
}

function ref(text: string): Ref {
  const negative = text.startsWith('-')
  const [int = '', frac = ''] = (negative ? text.slice(1) : text).split('.')
  const units = BigInt(`${int}${frac}`)
  return { units: negative ? -units : units, scale: frac.length }
}

function at(value: Ref, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale)
}

function refCompare(a: string, b: string): number {
  const x = ref(a)
  const y = ref(b)
  const scale = Math.max(x.scale, y.scale)
  const d = at(x, scale) - at(y, scale)
  return d < 0n ? -1 : d > 0n ? 1 : 0
}

/** The shortest text of units / 10^scale: no leading or trailing zeros, '0' for zero. */
function refText(units: bigint, scale: number): string {
  let u = units
  let s = scale
  while (s > 0 && u % 10n === 0n) {
    u /= 10n
    s -= 1
  }
  const negative = u < 0n
  const digits = (negative ? -u : u).toString().padStart(s + 1, '0')
  const body = s === 0 ? digits : `${digits.slice(0, -s)}.${digits.slice(-s)}`
  return negative ? `-${body}` : body
}

function refAdd(a: string, b: string, sign: 1n | -1n): string {
  const x = ref(a)
  const y = ref(b)
  const scale = Math.max(x.scale, y.scale)
  return refText(at(x, scale) + sign * at(y, scale), scale)
}

function refMultiply(a: string, b: string): string {
  const x = ref(a)
  const y = ref(b)
  return refText(x.units * y.units, x.scale + y.scale)
}

function refHalf(a: string): string {
  const x = ref(a)
  return refText(x.units * 5n, x.scale + 1)
}

/** -1, 0 or 1 (never -0, so that `toBe` compares signs only). */
const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0)

/** Random decimal text: optional '-', leading zeros, trailing zeros, zeros of every form. */
function randomDecimal(random: () => number): string {
  const digits = (n: number) => {
    let out = ''
    for (let k = 0; k < n; k++) out += String(Math.floor(random() * 10))
    return out
  }
  const r = random()
  let int: string
  if (r < 0.15) int = '0'
  else if (r < 0.25) int = `00${digits(1 + Math.floor(random() * 3))}`
  else int = digits(1 + Math.floor(random() * 8)).replace(/^0+(?=\d)/, '')
  let frac = ''
  const f = random()
  if (f < 0.2) frac = ''
  else if (f < 0.3) frac = '0'.repeat(1 + Math.floor(random() * 4))
  else frac = digits(1 + Math.floor(random() * 10))
  if (frac !== '' && random() < 0.2) frac += '0'.repeat(1 + Math.floor(random() * 3))
  const body = frac === '' ? int : `${int}.${frac}`
  return random() < 0.3 ? `-${body}` : body
}

/** Two decimals of one shape (same length, same point): the fast path of compareValidDecimals. */
function randomSameShape(random: () => number): [string, string] {
  const intDigits = 1 + Math.floor(random() * 6)
  const fracDigits = Math.floor(random() * 6)
  const one = () => {
    let int = ''
    for (let k = 0; k < intDigits; k++) int += String(Math.floor(random() * 10))
    let frac = ''
    for (let k = 0; k < fracDigits; k++) frac += String(Math.floor(random() * 10))
    return fracDigits === 0 ? int : `${int}.${frac}`
  }
  const a = one()
  // Often share a prefix, so that the deciding digit is late.
  const b = random() < 0.5 ? a.slice(0, Math.floor(random() * a.length)) : ''
  const rest = one().slice(b.length)
  return [a, b + rest]
}

describe('compareDecimal', () => {
  const cases: [string, string, number][] = [
    ['1.10', '1.1', 0],
    ['1.1', '1.10', 0],
    ['0.9', '10', -1],
    ['10', '0.9', 1],
    ['9', '10', -1],
    ['-1', '1', -1],
    ['1', '-1', 1],
    ['-2', '-10', 1],
    ['-10', '-2', -1],
    ['-1.5', '-1.25', -1],
    ['-0', '0', 0],
    ['-0.000', '0', 0],
    ['0', '-0.0', 0],
    ['-0', '0.0001', -1],
    ['-0.0001', '-0', -1],
    ['007', '7', 0],
    ['007.50', '7.5', 0],
    ['0010', '9.99', 1],
    ['00.1', '0.09', 1],
    ['1', '1.0000000000000000000001', -1],
    ['12345678901234567890.1', '12345678901234567890.09', 1],
    ['0.3', '0.30000000000000004', -1],
    // Same length and same point: the text fast path.
    ['1.23', '1.24', -1],
    ['9.99', '1.00', 1],
    ['01.5', '10.0', -1],
    ['5', '5', 0],
    // Same length, different point.
    ['1.23', '12.3', -1],
  ]

  it.each(cases)('compareDecimal(%j, %j) has sign %i', (a, b, expected) => {
    expect(sign(compareDecimal(a, b))).toBe(expected)
    expect(sign(compareValidDecimals(a, b))).toBe(expected)
  })

  it('is antisymmetric and agrees with a BigInt reference on random decimals', () => {
    const random = mulberry32(SEED)
    for (let n = 0; n < CASES; n++) {
      const a = randomDecimal(random)
      const b = random() < 0.1 ? a : randomDecimal(random)
      const expected = refCompare(a, b)
      const message = `seed ${SEED} case ${n}: compare(${a}, ${b})`
      expect(sign(compareDecimal(a, b)), message).toBe(expected)
      expect(sign(compareValidDecimals(a, b)), message).toBe(expected)
      expect(sign(compareValidDecimals(b, a)), message).toBe(sign(-expected))
    }
  })

  it('orders equal-length text of one shape like the reference (fast path)', () => {
    const seed = SEED + 1
    const random = mulberry32(seed)
    for (let n = 0; n < CASES; n++) {
      const [a, b] = randomSameShape(random)
      const message = `seed ${seed} case ${n}: compare(${a}, ${b})`
      expect(sign(compareValidDecimals(a, b)), message).toBe(refCompare(a, b))
    }
  })

  it('agrees with the reference on non-negative decimals with leading and trailing zeros', () => {
    const seed = SEED + 3
    const random = mulberry32(seed)
    const digits = (n: number) =>
      Array.from({ length: n }, () => String(Math.floor(random() * 10))).join('')
    const padded = () => {
      const int =
        '0'.repeat(Math.floor(random() * 3)) + (digits(1 + Math.floor(random() * 4)) || '0')
      const frac = random() < 0.3 ? '' : `.${digits(1 + Math.floor(random() * 5))}`
      return int + frac
    }
    for (let n = 0; n < CASES; n++) {
      const a = padded()
      const b = random() < 0.2 ? `0${a}` : padded()
      const message = `seed ${seed} case ${n}: compare(${a}, ${b})`
      expect(sign(compareValidDecimals(a, b)), message).toBe(refCompare(a, b))
      expect(sign(compareValidDecimals(b, a)), message).toBe(refCompare(b, a))
    }
  })

  it('agrees with the reference on a trailing-zero variant of the same value', () => {
    const seed = SEED + 2
    const random = mulberry32(seed)
    for (let n = 0; n < CASES; n++) {
      const a = randomDecimal(random)
      const b = a.includes('.') ? `${a}00` : `${a}.0`
      const message = `seed ${seed} case ${n}: compare(${a}, ${b})`
      expect(sign(compareValidDecimals(a, b)), message).toBe(0)
      expect(sign(compareDecimal(b, a)), message).toBe(0)
    }
  })

  // Regression: equal negatives once compared as -0.
  it.each([
    ['-1.10', '-1.1'],
    ['-007', '-7'],
    ['-2.5', '-2.50'],
  ])('returns 0, not -0, for equal values compareDecimal(%j, %j)', (a, b) => {
    expect(Object.is(compareDecimal(a, b), 0)).toBe(true)
    expect(Object.is(compareValidDecimals(b, a), 0)).toBe(true)
  })

  it.each([
    ['abc', '1'],
    ['1', 'abc'],
    ['', '0'],
    ['1.', '1'],
    ['.5', '0.5'],
    ['+1', '1'],
    ['1e3', '1000'],
    ['1,5', '1.5'],
    [' 1', '1'],
    ['--1', '1'],
    ['NaN', '1'],
  ])('throws a TypeError on garbage: compareDecimal(%j, %j)', (a, b) => {
    expect(() => compareDecimal(a, b)).toThrow(TypeError)
    expect(() => compareDecimal(b, a)).toThrow(TypeError)
  })

  it('names the bad operand in the TypeError', () => {
    expect(() => compareDecimal('1', 'x1')).toThrow('"x1"')
    expect(() => compareDecimal('y', '1')).toThrow('"y"')
  })
})

describe('decimal arithmetic', () => {
  it.each([
    ['0.1', '0.2', '0.3'],
    ['1.10', '1.1', '2.2'],
    ['-1', '1', '0'],
    ['-0.5', '0.25', '-0.25'],
    ['999.999', '0.001', '1000'],
    ['007', '0.50', '7.5'],
    ['-0', '-0', '0'],
  ])('addDecimal(%j, %j) is %j', (a, b, sum) => {
    expect(addDecimal(a, b)).toBe(sum)
  })

  it.each([
    ['1.046', '1.0452', '0.0008'],
    ['1', '1.0', '0'],
    ['0', '0.001', '-0.001'],
    ['-1', '-1.5', '0.5'],
    ['100', '0.01', '99.99'],
  ])('subtractDecimal(%j, %j) is %j', (a, b, difference) => {
    expect(subtractDecimal(a, b)).toBe(difference)
  })

  it.each([
    ['1.5', '0.25', '0.375'],
    ['1.046', '100', '104.6'],
    ['-2', '0.5', '-1'],
    ['-0.1', '-0.1', '0.01'],
    ['0', '-5', '0'],
    ['123456789.123456789', '987654321.987654321', '121932631356500531.347203169112635269'],
  ])('multiplyDecimal(%j, %j) is %j', (a, b, product) => {
    expect(multiplyDecimal(a, b)).toBe(product)
  })

  it.each([
    ['2.001', '1.0005'],
    ['2.0912', '1.0456'],
    ['1', '0.5'],
    ['-3', '-1.5'],
    ['-0.01', '-0.005'],
    ['0', '0'],
    ['-0', '0'],
    ['10', '5'],
  ])('halfDecimal(%j) is %j', (a, half) => {
    expect(halfDecimal(a)).toBe(half)
  })

  it.each([
    ['1.10', '1.1'],
    ['-0.0', '0'],
    ['-0', '0'],
    ['007', '7'],
    ['007.0100', '7.01'],
    ['0.000', '0'],
    ['-00.500', '-0.5'],
    ['10', '10'],
    ['100.00', '100'],
  ])('normalizeDecimal(%j) is %j', (a, normal) => {
    expect(normalizeDecimal(a)).toBe(normal)
  })

  it('add, subtract, multiply, half and normalize agree with a BigInt reference on random decimals', () => {
    const seed = SEED + 3
    const random = mulberry32(seed)
    for (let n = 0; n < CASES; n++) {
      const a = randomDecimal(random)
      const b = randomDecimal(random)
      const message = `seed ${seed} case ${n}: a=${a} b=${b}`
      expect(addDecimal(a, b), message).toBe(refAdd(a, b, 1n))
      expect(subtractDecimal(a, b), message).toBe(refAdd(a, b, -1n))
      expect(multiplyDecimal(a, b), message).toBe(refMultiply(a, b))
      expect(halfDecimal(a), message).toBe(refHalf(a))
      expect(normalizeDecimal(a), message).toBe(refText(ref(a).units, ref(a).scale))
    }
  })

  it('normal forms are equal exactly when the values are equal', () => {
    const seed = SEED + 4
    const random = mulberry32(seed)
    for (let n = 0; n < CASES; n++) {
      const a = randomDecimal(random)
      const b = random() < 0.3 ? normalizeDecimal(a) : randomDecimal(random)
      const message = `seed ${seed} case ${n}: a=${a} b=${b}`
      expect(normalizeDecimal(a) === normalizeDecimal(b), message).toBe(refCompare(a, b) === 0)
    }
  })

  it('a + b - b is a, and half of a + a is a (by value)', () => {
    const seed = SEED + 5
    const random = mulberry32(seed)
    for (let n = 0; n < CASES; n++) {
      const a = randomDecimal(random)
      const b = randomDecimal(random)
      const message = `seed ${seed} case ${n}: a=${a} b=${b}`
      expect(sign(compareDecimal(subtractDecimal(addDecimal(a, b), b), a)), message).toBe(0)
      expect(sign(compareDecimal(halfDecimal(addDecimal(a, a)), a)), message).toBe(0)
    }
  })

  it('throws a TypeError on garbage', () => {
    expect(() => addDecimal('1', 'x')).toThrow(TypeError)
    expect(() => subtractDecimal('', '1')).toThrow(TypeError)
    expect(() => multiplyDecimal('1e2', '1')).toThrow(TypeError)
    expect(() => halfDecimal('.5')).toThrow(TypeError)
    expect(() => normalizeDecimal('1.')).toThrow(TypeError)
  })
})

describe('isZeroDecimal and isDecimal', () => {
  it.each(['0', '0.000', '-0', '-0.0', '000', '00.00'])('%j is zero', (text) => {
    expect(isZeroDecimal(text)).toBe(true)
  })

  it.each(['1', '0.001', '-0.01', '10', '100.000', '0.0000000001'])('%j is not zero', (text) => {
    expect(isZeroDecimal(text)).toBe(false)
  })

  it.each(['', '-', '.', 'abc', '0x0'])('%j (not a decimal) is not zero', (text) => {
    expect(isZeroDecimal(text)).toBe(false)
  })

  it('is zero exactly when a random decimal compares equal to 0', () => {
    const seed = SEED + 6
    const random = mulberry32(seed)
    for (let n = 0; n < CASES; n++) {
      const a = randomDecimal(random)
      expect(isZeroDecimal(a), `seed ${seed} case ${n}: ${a}`).toBe(refCompare(a, '0') === 0)
    }
  })

  // Regression: isZeroDecimal once accepted text that is not a decimal ('.0', '0.').
  it.each(['.0', '0.', '-.0'])(
    'agrees with isDecimal on %j: no text that is not a decimal is zero',
    (text) => {
      expect(isDecimal(text)).toBe(false)
      expect(isZeroDecimal(text)).toBe(false)
    },
  )

  it.each([
    ['1', true],
    ['-1.5', true],
    ['007.10', true],
    ['1.', false],
    ['.1', false],
    ['1e5', false],
    ['', false],
  ])('isDecimal(%j) is %s', (text, expected) => {
    expect(isDecimal(text)).toBe(expected)
  })
})
