/**
 * A Markdown document's code, read the way test/readme.test.ts checks it: fenced blocks, the
 * command lines of the CLI in its shell blocks, and the output it shows for a command.
 */

/** One fenced block: its language, its text and the line of the document its text starts on. */
export interface Block {
  readonly lang: string
  readonly text: string
  readonly line: number
}

/** Every fenced block of `markdown`, in order. */
export function blocks(markdown: string): Block[] {
  const found: Block[] = []
  const lines = markdown.split('\n')
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^```(\w*)\s*$/.exec(lines[i] ?? '')
    if (open === null) continue
    const end = lines.findIndex((line, j) => j > i && line.startsWith('```'))
    if (end === -1) break
    found.push({ lang: open[1] ?? '', text: lines.slice(i + 1, end).join('\n'), line: i + 2 })
    i = end
  }
  return found
}

/** A command line of the CLI, as a shell block shows it. */
export interface Command {
  /** The line as written, without its comment. */
  readonly text: string
  /** The line of the document it is on. */
  readonly line: number
  /** `NAME=value` set for it: before it on its line, or by an `export` line above it. */
  readonly env: Readonly<Record<string, string>>
  /** What follows `venue-rx`. */
  readonly args: readonly string[]
  /** Ended with `&`: left running while the next commands run. */
  readonly background: boolean
}

/**
 * The `venue-rx` (or `npx venue-rx`) command lines of the shell blocks, with the variables
 * their block sets. Other lines (npm scripts, `export`s) are not commands of the CLI.
 * Quotes are refused rather than half understood: the README's commands need none.
 */
export function cliCommands(all: readonly Block[]): Command[] {
  const commands: Command[] = []
  for (const block of all.filter((b) => b.lang === 'sh')) {
    const exported: Record<string, string> = {}
    for (const [i, raw] of block.text.split('\n').entries()) {
      const text = raw.replace(/\s+#.*$/, '').trim()
      if (text === '' || text.startsWith('#')) continue
      if (/["'\\]/.test(text)) throw new Error(`line ${block.line + i}: quotes in "${text}"`)
      const words = text.split(/\s+/)
      if (words[0] === 'export') {
        for (const word of words.slice(1)) {
          const [name, value] = word.split('=')
          if (name !== undefined && value !== undefined) exported[name] = value
        }
        continue
      }
      const env: Record<string, string> = { ...exported }
      while (/^[A-Z_]+=\S*$/.test(words[0] ?? '')) {
        const [name = '', value = ''] = (words.shift() ?? '').split('=')
        env[name] = value
      }
      if (words[0] === 'npx') words.shift()
      if (words[0] !== 'venue-rx') continue
      const background = words.at(-1) === '&'
      if (background) words.pop()
      commands.push({ text, line: block.line + i, env, args: words.slice(1), background })
    }
  }
  return commands
}

/**
 * The output the README shows for a command: a text block that starts with
 * `$ venue-rx ...`, keyed by that command line.
 */
export function shownOutputs(all: readonly Block[]): Map<string, string[]> {
  const shown = new Map<string, string[]>()
  for (const block of all.filter((b) => b.lang === 'text')) {
    const [first = '', ...rest] = block.text.split('\n')
    if (first.startsWith('$ venue-rx ')) shown.set(first.slice(2).trim(), rest)
  }
  return shown
}
