/**
 * The imports of the sources under src/, read from their text: what the layers and the
 * import-cycles tests check. Type-only imports count (they tie the files together as much
 * for a reader), and so do re-exports, side-effect imports and dynamic imports of a
 * literal path.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'

export const SRC = join(import.meta.dirname, '..', '..', 'src')

/** Every TypeScript file under `dir` (default src/), as paths relative to src/. */
export function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(SRC, join(entry.parentPath, entry.name)))
    .sort()
}

/**
 * Module specifiers `text` imports: `import ... from`, `export ... from` (type-only ones
 * too), `import '...'`, and `import('...')`.
 */
export function importsOfText(text: string): string[] {
  const found = [
    ...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'/gm),
    ...text.matchAll(/^\s*import\s+'([^']+)'/gm),
    ...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
  ]
  return found.map((m) => m[1] ?? '')
}

/** Module specifiers the file `file` (relative to src/) imports or re-exports. */
export function imports(file: string): string[] {
  return importsOfText(readFileSync(join(SRC, file), 'utf8'))
}

/** Relative imports of a file, as paths under src/ (`streams/fills.ts`). */
export function localImports(file: string): string[] {
  return imports(file)
    .filter((s) => s.startsWith('.'))
    .map((s) => normalize(join(dirname(file), s)).replace(/\.js$/, '.ts'))
}
