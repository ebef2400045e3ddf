/**
 * Before the tests: a check that `redis-server` is there, and the sources the tests run
 * as child processes (the CLI, the fleet's relay and bot scripts) transpiled once with
 * esbuild (what tsx does on every start), so that each child starts as plain `node` in
 * a quarter of the time: some seventy children start during a run.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import { BUILT, ROOT } from './helpers/built.js'

export default async function setup(): Promise<void> {
  // The relay's tests need the real server: say so once, not in every test that fails.
  const found = spawnSync('redis-server', ['--version'], { stdio: 'ignore' })
  if (found.error !== undefined || found.status !== 0) {
    throw new Error(
      'redis-server not found: the relay tests run a real one (apt-get install redis-server)',
    )
  }
  rmSync(BUILT, { recursive: true, force: true })
  mkdirSync(BUILT, { recursive: true })
  const entryPoints = ['src', join('test', 'fleet')].flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => join(ROOT, dir, file)),
  )
  await build({
    entryPoints,
    outdir: BUILT,
    outbase: ROOT,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  })
  // ESM, and the version the CLI reads two levels above src/cli.
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
  writeFileSync(
    join(BUILT, 'package.json'),
    `${JSON.stringify({ name: pkg.name, version: pkg.version, type: 'module', private: true })}\n`,
  )
}
