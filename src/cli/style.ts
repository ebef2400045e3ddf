import { styleText } from 'node:util'

type Format = Parameters<typeof styleText>[0]

/**
 * `styleText` for `stream` only when it is a terminal and `NO_COLOR` is not set (Node 20's
 * `styleText` colours whatever the stream): pipes and files get plain text.
 */
export function painter(stream: NodeJS.WriteStream): (format: Format, text: string) => string {
  const colour = stream.isTTY === true && !process.env['NO_COLOR'] && process.env['TERM'] !== 'dumb'
  return colour ? (format, text) => styleText(format, text) : (_, text) => text
}
