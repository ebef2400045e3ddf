/**
 * Everything the TypeScript compiler checks, in one process and over one parse of the
 * sources (test/types.test.ts runs it as a child: the compiler's half a gigabyte is given
 * back when it ends, not kept by a test worker):
 *
 * - the project under tsconfig.json's options: src, examples and the type tests
 *   (`test/*.test-d.ts`); the rest of test/, and bench/, are left to `npm run typecheck`
 *   (see {@link inTestRun});
 * - the TypeScript of the README and of docs/: every ```ts and ```js block compiled as a
 *   user's strict NodeNext project would compile it, against the sources through
 *   tsconfig.json's `paths`, with a prelude declaring what the fragments use without
 *   defining it. Only the snippets' own errors count;
 * - the public reference: every name exported by an entry point of package.json (re-exports
 *   followed to the declaring file) has a doc comment with an `@example` on each of its
 *   declarations, so that the TypeDoc pages show an example for each.
 */
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import ts from 'typescript'
import { type Block, blocks } from './cli-readme.js'

/** What {@link typeCheck} found; every list is empty when all is well. */
export interface TypeCheckReport {
  /** The project's errors, as tsc prints them (`file(line,col): error TSn: text`). */
  readonly project: string[]
  /** How many files of each top directory the project check started from. */
  readonly projectRoots: Record<string, number>
  /** The snippets' errors, each as `README.md line N: text`. */
  readonly snippets: string[]
  /** How many snippets each Markdown file has. */
  readonly snippetCounts: Record<string, number>
  /** How many names the entry points export. */
  readonly exported: number
  /** The exported names lacking an `@example`, as `entry: name (file:line)`. */
  readonly undocumented: string[]
}

/** Checks the repository at `root`; `scratch` is a directory it may fill and remove. */
export function typeCheck(root: string, scratch: string): TypeCheckReport {
  const config = projectConfig(root)
  const options = { ...config.options, incremental: true, tsBuildInfoFile: buildInfoFile(root) }
  const host = sharedHost(options)
  const rootNames = config.fileNames.filter((file) => inTestRun(relative(root, file)))
  const projectRoots: Record<string, number> = {}
  for (const file of rootNames) {
    const top = relative(root, file).split(sep)[0] ?? ''
    projectRoots[top] = (projectRoots[top] ?? 0) + 1
  }
  // The sources alone first, incrementally (seeded by the build's own check: see
  // seedFromBuild); then the recipes and type tests, each file checked against them. Their types (vitest's among them) are global declarations: in one program with
  // the sources, a build info without them would count as another world, and everything
  // would be checked again.
  const isSource = (file: string) => relative(root, file).startsWith(`src${sep}`)
  seedFromBuild(root)
  const builder = ts.createIncrementalProgram({
    rootNames: rootNames.filter(isSource),
    options,
    host,
  })
  const program = builder.getProgram()
  // What ts.getPreEmitDiagnostics gathers, asked of the builder, which keeps them per file.
  // Not the declaration diagnostics (what emitting .d.ts files would find): `npm run build`
  // reports those, and CI runs it (npm ci); from a build info they cost a check again.
  const sourceDiagnostics = [
    ...builder.getConfigFileParsingDiagnostics(),
    ...builder.getOptionsDiagnostics(),
    ...builder.getSyntacticDiagnostics(),
    ...builder.getGlobalDiagnostics(),
    ...builder.getSemanticDiagnostics(),
  ]
  // With noEmit, the build info alone: what the next run need not check again.
  builder.emit(undefined, writeWhole)
  // Not incremental: a build info of this program, asked per file, would not know which of
  // these files a change to the sources affects.
  const others = rootNames.filter((file) => !isSource(file))
  const rest = ts.createProgram({ rootNames: others, options: config.options, host })
  const otherDiagnostics = [
    ...rest.getOptionsDiagnostics(),
    ...rest.getGlobalDiagnostics(),
    ...others.flatMap((file) => {
      const source = rest.getSourceFile(file)
      if (source === undefined) throw new Error(`${relative(root, file)} not in the program`)
      return [...rest.getSyntacticDiagnostics(source), ...rest.getSemanticDiagnostics(source)]
    }),
  ]
  const project = ts
    .sortAndDeduplicateDiagnostics([...sourceDiagnostics, ...otherDiagnostics])
    .map((d) => formatDiagnostic(d, root))
  const paths = absolutePaths(root, config.options)
  const { exported, undocumented } = survey(root, program, paths)

  const markdown = markdownFiles(root)
  const snippetCounts: Record<string, number> = {}
  const snippets: { file: string; block: Block }[] = []
  for (const file of markdown) {
    const found = blocks(readFileSync(join(root, file), 'utf8')).filter(
      (b) => b.lang === 'ts' || b.lang === 'js',
    )
    snippetCounts[file] = found.length
    for (const block of found) snippets.push({ file, block })
  }
  rmSync(scratch, { recursive: true, force: true })
  mkdirSync(scratch, { recursive: true })
  try {
    return {
      project,
      projectRoots,
      snippets: checkSnippets(scratch, snippets, host, paths),
      snippetCounts,
      exported,
      undocumented,
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

/**
 * Where the compiler keeps what it learnt of the sources (tsc's `incremental`): the next run
 * checks again only the files that changed and those whose types depend on them, and
 * reports the diagnostics of the others as they were, the same answers as a whole check
 * (files are known by a hash of their text). A run after a change to nothing in src/ then
 * only parses and binds it.
 */
function buildInfoFile(root: string): string {
  return join(root, 'node_modules', '.cache', 'venue-rx-types.tsbuildinfo')
}

/**
 * `npm run build` (run by `npm install`) checks the sources as the types test does, and
 * leaves what it learnt in {@link BUILD_INFO}: when that is newer than the types test's own
 * build info, the test starts from it (a copy in the same directory, whose relative paths
 * then still hold). On a fresh clone, the first `npm test` then checks only what changed
 * since the install. The compiler decides what it can reuse, by a hash of each file's text
 * and the options: a copy it cannot use costs a full check, never a wrong answer.
 */
function seedFromBuild(root: string): void {
  const built = join(root, BUILD_INFO)
  const own = buildInfoFile(root)
  let builtAt: number
  try {
    builtAt = statSync(built).mtimeMs
  } catch {
    return // no build yet
  }
  let ownAt = 0
  try {
    ownAt = statSync(own).mtimeMs
  } catch {
    // none yet
  }
  if (builtAt > ownAt) writeWhole(own, readFileSync(built, 'utf8'))
}

/** Where `npm run build` leaves its build info (package.json's `build` script). */
const BUILD_INFO = join('node_modules', '.cache', 'venue-rx-build.tsbuildinfo')

/**
 * Writes `text` to `path` whole, then renames it into place: another run reading the build
 * info meanwhile finds the old one or the new one, never half of one.
 */
function writeWhole(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true })
  const fresh = `${path}.${process.pid}`
  writeFileSync(fresh, text)
  renameSync(fresh, path)
}

/**
 * The files of tsconfig.json this check starts from: all but the tests and the benchmarks
 * (the type tests, `*.test-d.ts`, stay). Both are checked by `npm run typecheck`, which CI
 * runs before `npm test`: here the tests would add some 7 s of CPU (vitest's types among
 * them) to every run, for code that runs in the same run anyway, and the benchmarks, which
 * check nothing a test does not, some 1.5 s of a run.
 */
function inTestRun(file: string): boolean {
  const developerOnly = file.startsWith(`test${sep}`) || file.startsWith(`bench${sep}`)
  return !developerOnly || file.endsWith('.test-d.ts')
}

function projectConfig(root: string): ts.ParsedCommandLine {
  const path = join(root, 'tsconfig.json')
  const read = ts.readConfigFile(path, ts.sys.readFile)
  if (read.error !== undefined) {
    throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'))
  }
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, root, { noEmit: true }, path)
  if (parsed.errors.length > 0) {
    throw new Error(
      parsed.errors.map((e) => ts.flattenDiagnosticMessageText(e.messageText, ' ')).join('\n'),
    )
  }
  return parsed
}

/**
 * A compiler host whose source files are parsed once for both programs (the project's and
 * the snippets'): a file is kept by its name and by what its parse depends on (target and
 * module format), as the language service shares files between projects.
 */
function sharedHost(options: ts.CompilerOptions): ts.CompilerHost {
  // tsc's own host for incremental builds: files are known to the build info by the same
  // hash of their text as tsc's command line knows them (a source map comment left out),
  // so this check reuses what `npm run build` learnt (see seedFromBuild).
  const host = ts.createIncrementalCompilerHost(options)
  const parsed = new Map<string, ts.SourceFile | undefined>()
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const how =
      typeof languageVersion === 'object'
        ? `${languageVersion.languageVersion}/${languageVersion.impliedNodeFormat}`
        : `${languageVersion}`
    const key = `${how} ${fileName}`
    if (!parsed.has(key)) {
      parsed.set(key, getSourceFile(fileName, languageVersion, onError, shouldCreate))
    }
    return parsed.get(key)
  }
  return host
}

function formatDiagnostic(d: ts.Diagnostic, root: string): string {
  const text = ts.flattenDiagnosticMessageText(d.messageText, ' ')
  if (d.file === undefined || d.start === undefined) return `error TS${d.code}: ${text}`
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start)
  return `${relative(root, d.file.fileName)}(${line + 1},${character + 1}): error TS${d.code}: ${text}`
}

/** README.md and the Markdown files of docs/. */
function markdownFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`)
  return ['README.md', ...docs]
}

/**
 * The snippets' own errors: one module each (`export {}` makes a fragment one, for its
 * top-level await), compiled with the prelude as a user's strict project would.
 */
function checkSnippets(
  dir: string,
  snippets: readonly { file: string; block: Block }[],
  host: ts.CompilerHost,
  paths: ts.MapLike<string[]>,
): string[] {
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n')
  writeFileSync(join(dir, 'prelude.d.ts'), PRELUDE)
  const files = snippets.map((snippet, i) => {
    const path = join(dir, `snippet-${i}.ts`)
    writeFileSync(path, `${snippet.block.text}\nexport {}\n`)
    return { path, ...snippet }
  })
  const program = ts.createProgram({
    rootNames: [join(dir, 'prelude.d.ts'), ...files.map((f) => f.path)],
    options: {
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2023.d.ts'],
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: ['node'],
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      paths,
    },
    host,
  })
  // Diagnostics of the snippets alone: the checker then looks at only what they use.
  return files.flatMap(({ path, file, block }) => {
    const source = program.getSourceFile(path)
    if (source === undefined) return [`${file} line ${block.line}: not compiled`]
    return [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ].map((d) => {
      const at = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line
      return `${file} line ${block.line + at}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`
    })
  })
}

/**
 * What the fragments use without defining: a venue and a simulator made earlier, the
 * reader's own values and callbacks, and library functions whose import an earlier snippet
 * showed. A snippet that defines or imports one of these names uses its own.
 */
const PRELUDE = `import type { createVenue as CreateVenue, fileCheckpoint as FileCheckpoint, Kline, Venue } from 'venue-rx'
import type { OhlcvCandle } from 'venue-rx/signals'
import type { Simulator, startSimulator as StartSimulator } from 'venue-rx/simulator'

declare global {
  const venue: Venue
  const sim: Simulator
  const strategy: { onCandle(candle: Kline): void }
  const chart: { drawLive(candle: Kline): void }
  function store(candle: OhlcvCandle): void
  const baseUrl: string
  const apiKey: string
  const enough: boolean
  const ledger: { record(item: unknown): void }
  function fetchSomething(signal: AbortSignal): Promise<unknown>
  function onTrade(trade: unknown): void
  function onBook(book: unknown): void
  const createVenue: typeof CreateVenue
  const fileCheckpoint: typeof FileCheckpoint
  const startSimulator: typeof StartSimulator
}
`

/**
 * tsconfig.json's `paths`, made absolute: `venue-rx` and each of its entry points name a
 * source file (test/examples.test.ts checks they are package.json's "exports").
 */
function absolutePaths(root: string, options: ts.CompilerOptions): ts.MapLike<string[]> {
  return Object.fromEntries(
    Object.entries(options.paths ?? {}).map(([name, targets]) => [
      name,
      targets.map((target) => join(root, target)),
    ]),
  )
}

const hasExample = (declaration: ts.Declaration): boolean =>
  ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === 'example')

const hasComment = (declaration: ts.Declaration): boolean =>
  ts.getJSDocCommentsAndTags(declaration).length > 0

// The declarations a reader sees, each needing an example. An overloaded function shows its
// overload signatures, not the implementation; TypeDoc gives a signature without a comment
// of its own the first signature's, so only the first must have one, and any later one
// that has a comment of its own.
const undocumentedOf = (symbol: ts.Symbol): ts.Declaration[] => {
  const declarations = symbol.declarations ?? []
  const overloads = declarations.filter((d) => ts.isFunctionDeclaration(d) && d.body === undefined)
  if (overloads.length === 0) return declarations.filter((d) => !hasExample(d))
  return overloads.filter((d, i) => !hasExample(d) && (i === 0 || hasComment(d)))
}

/** The exported names of the entry points (the targets of `paths`), and those lacking an `@example`. */
function survey(
  root: string,
  program: ts.Program,
  paths: ts.MapLike<string[]>,
): { exported: number; undocumented: string[] } {
  const checker = program.getTypeChecker()
  const undocumented: string[] = []
  let exported = 0
  for (const target of Object.values(paths).flat()) {
    const entry = relative(root, target)
    const file = program.getSourceFile(target)
    if (file === undefined) throw new Error(`${entry} not in the program`)
    const moduleSymbol = checker.getSymbolAtLocation(file)
    if (moduleSymbol === undefined) throw new Error(`${entry} is no module`)
    for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
      exported += 1
      for (const declaration of undocumentedOf(target)) {
        const source = declaration.getSourceFile()
        const { line } = source.getLineAndCharacterOfPosition(declaration.getStart())
        undocumented.push(
          `${entry}: ${symbol.getName()} (${relative(root, source.fileName)}:${line + 1})`,
        )
      }
    }
  }
  return { exported, undocumented }
}
