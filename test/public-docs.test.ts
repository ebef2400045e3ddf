/**
 * Every public symbol carries an `@example`: each name exported from an entry point of
 * package.json (re-exports followed to the declaring file) has a doc comment with an
 * `@example` tag on each of its declarations, so the TypeDoc reference shows an example for
 * each. One program over the entry files, no type checking: about a second.
 */
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))

const ENTRY_POINTS = [
  'src/index.ts',
  'src/operators.ts',
  'src/schemas/index.ts',
  'src/signals/index.ts',
  'src/simulator/index.ts',
  'src/relay.ts',
]

const compilerOptions = (): ts.CompilerOptions => {
  const configPath = ts.findConfigFile(root, ts.sys.fileExists, 'tsconfig.json')
  if (configPath === undefined) throw new Error('tsconfig.json not found')
  const config = ts.readConfigFile(configPath, ts.sys.readFile)
  if (config.error !== undefined)
    throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'))
  return ts.parseJsonConfigFileContent(config.config, ts.sys, root).options
}

const hasExample = (declaration: ts.Declaration): boolean =>
  ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === 'example')

const hasComment = (declaration: ts.Declaration): boolean =>
  ts.getJSDocCommentsAndTags(declaration).length > 0

// The declarations a reader sees, each needing an example. An overloaded function shows its
// overload signatures, not the implementation; TypeDoc gives a signature without a comment
// of its own the first signature's, so only the first must have one, and any later one
// that has a comment of its own.
const undocumented = (symbol: ts.Symbol): ts.Declaration[] => {
  const declarations = symbol.declarations ?? []
  const overloads = declarations.filter((d) => ts.isFunctionDeclaration(d) && d.body === undefined)
  if (overloads.length === 0) return declarations.filter((d) => !hasExample(d))
  return overloads.filter((d, i) => !hasExample(d) && (i === 0 || hasComment(d)))
}

const where = (declaration: ts.Declaration): string => {
  const file = declaration.getSourceFile()
  const { line } = file.getLineAndCharacterOfPosition(declaration.getStart())
  return `${file.fileName.slice(root.length)}:${line + 1}`
}

interface Missing {
  readonly entry: string
  readonly name: string
  readonly at: string
}

const survey = () => {
  const program = ts.createProgram({
    rootNames: ENTRY_POINTS.map((entry) => `${root}${entry}`),
    options: { ...compilerOptions(), noEmit: true },
  })
  const checker = program.getTypeChecker()
  const missing: Missing[] = []
  let exported = 0
  for (const entry of ENTRY_POINTS) {
    const file = program.getSourceFile(`${root}${entry}`)
    if (file === undefined) throw new Error(`${entry} not in the program`)
    const moduleSymbol = checker.getSymbolAtLocation(file)
    if (moduleSymbol === undefined) throw new Error(`${entry} is no module`)
    for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
      exported += 1
      for (const declaration of undocumented(target)) {
        missing.push({ entry, name: symbol.getName(), at: where(declaration) })
      }
    }
  }
  return { exported, missing }
}

const report = (missing: readonly Missing[]): string =>
  ENTRY_POINTS.map((entry) => {
    const lines = missing.filter((m) => m.entry === entry).map((m) => `  ${m.name} (${m.at})`)
    return lines.length === 0 ? '' : `${entry}:\n${lines.join('\n')}`
  })
    .filter((block) => block !== '')
    .join('\n')

describe('public documentation', () => {
  it('every exported symbol of every entry point has a doc comment with an @example', () => {
    const { exported, missing } = survey()
    expect(exported).toBeGreaterThan(100)
    // The report lists, by entry point, each symbol whose declaration lacks an @example.
    expect(report(missing), 'symbols without an @example, by entry point').toBe('')
  })
})
