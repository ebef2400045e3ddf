import type { Route } from './route.js'

/** A route chosen for a request, with its decoded path parameter. */
export interface RouteMatch {
  readonly route: Route
  readonly pathParam: string
}

/** Compiled form of a route's path template. */
interface CompiledRoute {
  readonly route: Route
  /** Literal segments; `undefined` marks the parameter segment. */
  readonly segments: readonly (string | undefined)[]
}

const PARAMETER_SEGMENT = /^\{[^}]+\}$/

/**
 * Builds a matcher over a route table. A template segment `{name}` matches one non-empty
 * path segment, percent-decoded (so a client id may contain `/` as `%2F`); every other
 * segment matches itself exactly.
 *
 * @example
 * ```ts
 * const match = createRouteMatcher(routes)
 * match('/api/v1/orders/client-id/a%2Fb')?.pathParam // 'a/b'
 * match('/api/v1/nope') // undefined
 * ```
 */
export function createRouteMatcher(
  routes: readonly Route[],
): (pathname: string) => RouteMatch | undefined {
  const compiled: CompiledRoute[] = routes.map((route) => ({
    route,
    segments: route.path
      .split('/')
      .map((segment) => (PARAMETER_SEGMENT.test(segment) ? undefined : segment)),
  }))
  return (pathname) => {
    const parts = pathname.split('/')
    for (const { route, segments } of compiled) {
      const pathParam = matchSegments(segments, parts)
      if (pathParam !== undefined) return { route, pathParam }
    }
    return undefined
  }
}

/** The decoded parameter (or `''`) when `parts` fits `segments`, else `undefined`. */
function matchSegments(
  segments: readonly (string | undefined)[],
  parts: readonly string[],
): string | undefined {
  if (segments.length !== parts.length) return undefined
  let pathParam = ''
  for (const [index, segment] of segments.entries()) {
    const part = parts[index] ?? ''
    if (segment !== undefined) {
      if (segment !== part) return undefined
      continue
    }
    if (part === '') return undefined
    const decoded = decodeSegment(part)
    if (decoded === undefined) return undefined
    pathParam = decoded
  }
  return pathParam
}

function decodeSegment(part: string): string | undefined {
  try {
    return decodeURIComponent(part)
  } catch {
    return undefined
  }
}
