/**
 * `node type-check-process.js ROOT SCRATCH`: runs {@link typeCheck} on the repository at
 * ROOT and prints its report as one line of JSON (test/types.test.ts starts it).
 */
import { typeCheck } from './type-check.js'

const [root, scratch] = process.argv.slice(2)
if (root === undefined || scratch === undefined) {
  process.stderr.write('usage: type-check-process ROOT SCRATCH\n')
  process.exit(2)
}
process.stdout.write(`${JSON.stringify(typeCheck(root, scratch))}\n`)
