/**
 * Import cycles of a graph of files: its strongly connected components of more than one
 * file (or a file importing itself), each shown as one cycle through it.
 */

/** Files importing each other in a ring: `a.ts -> b.ts -> a.ts`, one shown per tangle. */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  return tangles(graph).map((files) => showCycle(graph, files))
}

/** The strongly connected components with a cycle (Tarjan's algorithm), each sorted. */
export function tangles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  let next = 0
  const visit = (file: string): void => {
    index.set(file, next)
    low.set(file, next)
    next += 1
    stack.push(file)
    onStack.add(file)
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue
      if (!index.has(target)) {
        visit(target)
        low.set(file, Math.min(low.get(file) as number, low.get(target) as number))
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file) as number, index.get(target) as number))
      }
    }
    if (low.get(file) !== index.get(file)) return
    const component: string[] = []
    for (;;) {
      const member = stack.pop() as string
      onStack.delete(member)
      component.push(member)
      if (member === file) break
    }
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) {
      found.push(component.sort())
    }
  }
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file)
  return found.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''))
}

/** One cycle through the first of `files` within them, by breadth-first search. */
function showCycle(graph: ReadonlyMap<string, readonly string[]>, files: readonly string[]) {
  const inside = new Set(files)
  const start = files[0] as string
  const cameFrom = new Map<string, string>()
  const queue = [start]
  while (queue.length > 0) {
    const file = queue.shift() as string
    for (const target of graph.get(file) ?? []) {
      if (!inside.has(target)) continue
      if (target === start) {
        const path = [start]
        for (let at = file; at !== start; at = cameFrom.get(at) as string) path.splice(1, 0, at)
        const shown = [...path, start].join(' -> ')
        return files.length > path.length ? `${shown} (${files.length} files tangled)` : shown
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, file)
        queue.push(target)
      }
    }
  }
  return files.join(', ')
}
