/**
 * No import cycles in src/, within a layer as across layers (the layers test sees only the
 * arrows between layers). Type-only imports count: a cycle of types still ties files
 * together, and often hides a type that belongs in a file of its own.
 */
import { describe, expect, it } from 'vitest'
import { importCycles } from './helpers/import-cycles.js'
import { importsOfText, localImports, sources } from './helpers/source-imports.js'

/** Every file under src/ and the files under src/ it imports. */
function sourceGraph(): Map<string, string[]> {
  return new Map(sources().map((file) => [file, localImports(file)]))
}

describe('import cycles', () => {
  it('src/ has none: no file reaches itself through its imports, type imports included', () => {
    expect(importCycles(sourceGraph())).toEqual([])
  })

  it('reads every kind of import: type-only, re-exports, side effects and dynamic', () => {
    const text = [
      "import type { Fill } from './fill.js'",
      "import { type A, b } from './a.js'",
      'import {',
      '  c,',
      '  type D,',
      "} from './c.js'",
      "export type { E } from './e.js'",
      "export { f } from './f.js'",
      "export * from './g.js'",
      "import './h.js'",
      "const i = await import('./i.js')",
      " * import { j } from './in-a-doc-comment.js'",
    ].join('\n')
    expect(importsOfText(text)).toEqual([
      './fill.js',
      './a.js',
      './c.js',
      './e.js',
      './f.js',
      './g.js',
      './h.js',
      './i.js',
    ])
  })

  it('finds a cycle within one folder, and one through a type import', () => {
    const graph = new Map([
      ['streams/a.ts', ['streams/b.ts', 'core/x.ts']],
      ['streams/b.ts', ['streams/c.ts']],
      ['streams/c.ts', ['streams/a.ts']],
      ['core/x.ts', []],
      ['signals/p.ts', ['signals/q.ts']],
      ['signals/q.ts', ['signals/p.ts']],
      ['signals/self.ts', ['signals/self.ts']],
    ])
    expect(importCycles(graph)).toEqual([
      'signals/p.ts -> signals/q.ts -> signals/p.ts',
      'signals/self.ts -> signals/self.ts',
      'streams/a.ts -> streams/b.ts -> streams/c.ts -> streams/a.ts',
    ])
  })

  it('shows one ring of a tangle and how many files it ties', () => {
    const graph = new Map([
      ['m/a.ts', ['m/b.ts', 'm/c.ts']],
      ['m/b.ts', ['m/a.ts']],
      ['m/c.ts', ['m/d.ts']],
      ['m/d.ts', ['m/a.ts']],
    ])
    expect(importCycles(graph)).toEqual(['m/a.ts -> m/b.ts -> m/a.ts (4 files tangled)'])
  })

  it('the graph of src/ is the real one: a known import is in it', () => {
    const graph = sourceGraph()
    expect(graph.get('streams/fills.ts')).toContain('streams/stream-context.ts')
    expect(graph.get('signals/indicator.ts')).toContain('signals/indicator-input.ts')
    expect(graph.size).toBeGreaterThan(200)
  })
})
