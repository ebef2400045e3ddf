import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = join(import.meta.dirname, '..', 'src')

/** Every TypeScript file under `dir`, as paths relative to src/. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(SRC, join(entry.parentPath, entry.name)))
}

/** Module specifiers a file imports or re-exports. */
function imports(file: string): string[] {
  const text = readFileSync(join(SRC, file), 'utf8')
  return [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'/gm)].map(
    (m) => m[1] ?? '',
  )
}

describe('layering', () => {
  it('finds the source files it checks', () => {
    expect(sources(SRC)).toContain('transport/undici-transport.ts')
    expect(imports('transport/undici-transport.ts')).toContain('undici')
  })

  it('imports undici only in the transport', () => {
    const offenders = sources(SRC).filter(
      (file) =>
        !file.startsWith('transport/') &&
        imports(file).some((s) => s === 'undici' || s.startsWith('undici/')),
    )
    expect(offenders).toEqual([])
  })

  it('keeps the client and the simulator apart', () => {
    const files = sources(SRC)
    const simulatorReachesOut = files
      .filter((file) => file.startsWith('simulator/'))
      .filter((file) =>
        imports(file).some(
          (s) => s.startsWith('.') && !join('src', file, '..', s).startsWith('src/simulator'),
        ),
      )
    // The CLI is the top layer: it joins the two.
    const clientReachesIn = files
      .filter((file) => !file.startsWith('simulator/') && !file.startsWith('cli/'))
      .filter((file) =>
        imports(file).some((s) => join('src', file, '..', s).startsWith('src/simulator')),
      )
    expect(simulatorReachesOut).toEqual([])
    expect(clientReachesIn).toEqual([])
  })
})

describe('filter names', () => {
  it('are the same in the client and in the simulator (kept apart, so checked here)', async () => {
    const { DEFAULT_PARAM_NAMES } = await import('../src/rest/param-names.js')
    const { PARAM_NAMES } = await import('../src/simulator/server/param-names.js')
    expect(JSON.parse(JSON.stringify(PARAM_NAMES))).toEqual(
      JSON.parse(JSON.stringify(DEFAULT_PARAM_NAMES)),
    )
  })
})
