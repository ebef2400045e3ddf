import { styleText } from 'node:util'
import type { CliIo, CliOutput } from './io.js'

type Format = Parameters<typeof styleText>[0]

/**
 * `styleText` for `stream` only when it is a terminal and `NO_COLOR` is not set in `env`
 * (Node 20's `styleText` colours whatever the stream): pipes and files get plain text.
 */
export function painter(
  stream: CliOutput,
  env: CliIo['env'],
): (format: Format, text: string) => string {
  const colour = stream.isTTY === true && !env['NO_COLOR'] && env['TERM'] !== 'dumb'
  return colour ? (format, text) => styleText(format, text) : (_, text) => text
}
