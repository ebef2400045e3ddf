/**
 * Before the tests: a check that `redis-server` is there, and the sources the tests run
 * as child processes (the CLI, the fleet's relay and bot scripts, the recipes, the library
 * for the scripts a test writes) bundled once with esbuild (tsx would transpile them on
 * every start), so that each child starts as plain `node`: some ninety children start
 * during a run. The recipes of examples/ import
 * `venue-rx` as a user's project does; esbuild maps it to the sources by tsconfig.json's
 * `paths`, as tsx does when a person runs one in this repository.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { build, type Plugin } from 'esbuild'
import { BUILT, ROOT } from './helpers/built.js'

export default async function setup(): Promise<void> {
  // The relay's tests need the real server: say so once, not in every test that fails.
  const found = spawnSync('redis-server', ['--version'], { stdio: 'ignore' })
  if (found.error !== undefined || found.status !== 0) {
    throw new Error(
      'redis-server not found: the relay tests run a real one (apt-get install redis-server)',
    )
  }
  const fresh = `${BUILT}.${process.pid}`
  rmSync(fresh, { recursive: true, force: true })
  mkdirSync(fresh, { recursive: true })
  const sources = (dir: string) =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => join(ROOT, dir, file))
  const common = {
    outbase: ROOT,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  } as const
  // The CLI, the fleet's scripts and the recipes are bundled with their dependencies (one
  // start loads a few files, not some eight hundred modules: a child starts in about
  // 0.16 s of CPU instead of 0.4 s), split so that each command still loads only its own
  // code. A recipe's `venue-rx` is mapped to the sources by tsconfig.json's `paths`.
  await build({
    ...common,
    entryPoints: [
      join(ROOT, 'src', 'cli', 'main.ts'),
      join(ROOT, 'src', 'index.ts'),
      ...sources('test/fleet').filter((file) => file.endsWith('-process.ts')),
      ...sources('examples'),
    ],
    outdir: fresh,
    tsconfig: join(ROOT, 'tsconfig.json'),
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    // rxjs's ES module build, which esbuild trims to what the code uses: Node's condition of
    // its package exports names the CommonJS build, all of which a bundle keeps and every
    // child then compiles and runs at its start.
    plugins: [rxjsModules, undiciDispatchers],
    // ioredis is loaded by Node as a user's project loads it (its CommonJS default export
    // does not survive the bundle's interop).
    external: ['ioredis'],
    // Bundled CommonJS dependencies (undici, ioredis) call require for Node's modules.
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  })
  // The compiler's checks of test/types.test.ts, also run as a child: the compiler itself is
  // loaded from node_modules.
  await build({
    ...common,
    entryPoints: [join(ROOT, 'test', 'helpers', 'type-check-process.ts')],
    outdir: fresh,
    bundle: true,
    packages: 'external',
  })
  // ESM, and the version the CLI reads two levels above src/cli.
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
  writeFileSync(
    join(fresh, 'package.json'),
    `${JSON.stringify({ name: pkg.name, version: pkg.version, type: 'module', private: true })}\n`,
  )
  swapIn(fresh)
}

/** Resolves `rxjs` to its ES module build (see its use above). */
const rxjsModules: Plugin = {
  name: 'rxjs-modules',
  setup(build) {
    build.onResolve({ filter: /^rxjs$/ }, () => ({
      path: join(ROOT, 'node_modules', 'rxjs', 'dist', 'esm', 'index.js'),
    }))
  },
}

/**
 * Resolves `undici` to the two classes the library takes from it, `Pool` and `Agent`, from
 * their own modules: undici's index loads all of it (fetch, WebSocket, caches, mocks) at
 * every child's start. A name the library imports and this leaves out fails the build.
 */
const undiciDispatchers: Plugin = {
  name: 'undici-dispatchers',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({
      path: 'undici',
      namespace: 'undici-dispatchers',
    }))
    build.onLoad({ filter: /.*/, namespace: 'undici-dispatchers' }, () => ({
      contents: [
        "import Pool from 'undici/lib/dispatcher/pool.js'",
        "import Agent from 'undici/lib/dispatcher/agent.js'",
        'export { Agent, Pool }',
      ].join('\n'),
      resolveDir: ROOT,
      loader: 'js',
    }))
  },
}

/**
 * Puts the fresh copy in BUILT's place by renames, not by emptying BUILT and writing into
 * it: another test run on this machine, whose children are loading modules from BUILT,
 * then finds the old copy or the new one, never a directory half gone.
 */
function swapIn(fresh: string): void {
  const old = `${BUILT}.old.${process.pid}`
  for (let attempt = 0; ; attempt += 1) {
    try {
      renameSync(BUILT, old)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
    try {
      renameSync(fresh, BUILT)
      break
    } catch (error) {
      // Another run put its copy in place between the two renames: move that one aside too.
      const code = (error as NodeJS.ErrnoException).code
      if (attempt >= 5 || (code !== 'ENOTEMPTY' && code !== 'EEXIST')) throw error
      rmSync(old, { recursive: true, force: true })
    }
  }
  rmSync(old, { recursive: true, force: true })
}
