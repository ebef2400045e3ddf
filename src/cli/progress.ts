/**
 * Progress of a long run on stderr: on a terminal one line rewritten in place (at most
 * 10 times a second), otherwise a plain line at most once a second; `done` prints the
 * final line either way.
 */
export function progressLine(stream: NodeJS.WriteStream = process.stderr) {
  const tty = stream.isTTY === true
  const started = performance.now()
  let lastShown = Number.NEGATIVE_INFINITY
  let shownInPlace = false
  const text = (items: number, note: string) => {
    const seconds = (performance.now() - started) / 1000
    const rate = seconds > 0 ? Math.round(items / seconds) : 0
    return `${items} item${items === 1 ? '' : 's'}, ${rate}/s, ${seconds.toFixed(1)} s${note ? `, ${note}` : ''}`
  }
  return {
    update(items: number, note = ''): void {
      const now = performance.now()
      if (now - lastShown < (tty ? 100 : 1000)) return
      lastShown = now
      if (tty) {
        stream.write(`\r\x1b[K${text(items, note)}`)
        shownInPlace = true
      } else {
        stream.write(`${text(items, note)}\n`)
      }
    },
    /** Clears the line shown in place, before another line is written to the stream. */
    clear(): void {
      if (tty && shownInPlace) stream.write('\r\x1b[K')
      shownInPlace = false
    },
    done(items: number, note = ''): void {
      stream.write(`${tty && shownInPlace ? '\r\x1b[K' : ''}${text(items, note)}\n`)
    },
  }
}
