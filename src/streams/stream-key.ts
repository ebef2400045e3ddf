/**
 * The key that decides which subscribers share a poller: the stream name plus its
 * arguments in a canonical form (object keys sorted, undefined left out), so
 * `{ a: 1, b: 2 }` and `{ b: 2, a: 1 }` share.
 *
 * @example
 * ```ts
 * streamKey('watchDepth', [1, { precision: '0.01', limit: 5 }])
 * // 'watchDepth(1,{"limit":5,"precision":"0.01"})'
 * ```
 */
export function streamKey(name: string, args: readonly unknown[] = []): string {
  return `${name}(${args.map(canonical).join(',')})`
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'undefined'
}
