/**
 * Where test/global-setup.ts puts the transpiled sources that tests start as child
 * processes, and the paths of those programs in it.
 */
import { join } from 'node:path'

export const ROOT = join(import.meta.dirname, '..', '..')

/** The transpiled copy of src/ and test/fleet/ (regenerated before every run). */
export const BUILT = join(ROOT, 'node_modules', '.cache', 'venue-rx-test')

/** `node <this>` runs the CLI as `npm start` does, without tsx's start-up. */
export const BUILT_CLI = join(BUILT, 'src', 'cli', 'main.js')

/** The library's main entry point, bundled: what a test's own child script imports. */
export const BUILT_INDEX = join(BUILT, 'src', 'index.js')

/** A transpiled test/fleet/ script. */
export const builtFleetScript = (name: string) =>
  join(BUILT, 'test', 'fleet', name.replace(/\.ts$/, '.js'))
