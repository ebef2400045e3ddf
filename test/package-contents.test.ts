/**
 * What the README and docs/ link to is there, and the package ships it: an installed user
 * (from a packed tarball) reads the same docs and recipes. The file list is npm's own
 * (`npm pack --dry-run`), not a rule written again here.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from './helpers/cli.js'

/** The Markdown files an installed user reads. */
const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
]

/** Relative link targets of a Markdown file, as paths from the root (anchors dropped). */
function linksOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '')
  const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map(([, target]) => target as string)
  return targets
    .filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith('#'))
    .map((target) => normalize(join(dirname(file), target.replace(/#.*$/, ''))))
}

describe('the package', () => {
  it('every relative link of the README and docs/ names a file that exists and that npm packs', () => {
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
        cwd: ROOT,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    ) as { files: { path: string }[] }[]
    const files = new Set(packed[0]?.files.map((file) => file.path))
    const links = DOCUMENTS.flatMap((file) => linksOf(file).map((target) => ({ file, target })))
    expect(links.length).toBeGreaterThan(20)
    expect(links.filter(({ target }) => !existsSync(join(ROOT, target)))).toEqual([])
    expect(links.filter(({ target }) => !files.has(target))).toEqual([])
    // The recipes the README names, and the docs, ship whole.
    for (const name of readdirSync(join(ROOT, 'examples'))) {
      expect(files.has(`examples/${name}`), name).toBe(true)
    }
    for (const file of DOCUMENTS) expect(files.has(file), file).toBe(true)
  })

  it('takes rxjs as a peer: a bot and venue-rx share its one copy', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>
      peerDependencies?: Record<string, string>
    }
    expect(manifest.peerDependencies?.['rxjs']).toBe('^7.8')
    expect(manifest.dependencies?.['rxjs']).toBeUndefined()
  })
})
