import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'

/** Each module of a folder, by its path relative to the folder (`contract/client/exchange.ts`), and what it imports. */
export type ImportGraph = Map<string, string[]>

/**
 * The relative imports of every TypeScript module under `root`: `import`, `import type`, `export … from` and
 * `import('…')` with a literal, resolved to the module they name (`./x.js` is `./x.ts`). Packages are left out.
 *
 * @example
 * readImportGraph('src').get('http/read-bounded-body.ts') // ['streams/bounded-bytes.ts', …]
 */
export function readImportGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map()
  for (const file of listModules(root)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    const imports = importedFiles
      .map(({ fileName }) => fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => toModule(root, file, name))
    graph.set(toName(root, file), [...new Set(imports)])
  }
  return graph
}

function listModules(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return listModules(path)
    return /\.(ts|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

function toModule(root: string, from: string, specifier: string): string {
  const path = resolve(dirname(from), specifier)
  const candidates = [path.replace(/\.m?js$/, (ext) => (ext === '.mjs' ? '.mts' : '.ts')), path, join(path, 'index.ts')]
  const found = candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile())
  if (found === undefined) throw new Error(`${toName(root, from)} imports ${specifier}, which is no module`)
  return toName(root, found)
}

function toName(root: string, path: string): string {
  return relative(root, path).split(sep).join('/')
}

/**
 * Every circle of imports, each once, as the modules around it in order (the first again at the end):
 * `['a.ts', 'b.ts', 'a.ts']`. Tarjan's strongly connected components, then one circle through each.
 */
export function findImportCycles(graph: ImportGraph): string[][] {
  return stronglyConnected(graph)
    .filter(
      (component) => component.length > 1 || (graph.get(component[0] as string) ?? []).includes(component[0] as string),
    )
    .map((component) => circleThrough(graph, new Set(component)))
}

function stronglyConnected(graph: ImportGraph): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const components: string[][] = []
  const visit = (node: string): void => {
    index.set(node, index.size)
    low.set(node, index.get(node) as number)
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number))
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) as number, index.get(next) as number))
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string | undefined
    do {
      member = stack.pop() as string
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    components.push(component.sort())
  }
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node)
  return components
}

/** A shortest way from the component's first module back to itself, inside the component. */
function circleThrough(graph: ImportGraph, component: Set<string>): string[] {
  const start = [...component][0] as string
  const cameFrom = new Map<string, string>()
  const queue = [start]
  for (let at = 0; at < queue.length; at += 1) {
    const node = queue[at] as string
    for (const next of graph.get(node) ?? []) {
      if (!component.has(next)) continue
      if (next === start) {
        const circle = [node]
        while (circle[0] !== start) circle.unshift(cameFrom.get(circle[0] as string) as string)
        return [...circle, start]
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node)
        queue.push(next)
      }
    }
  }
  return [...component]
}

/** Rooms and the rooms each may import directly; what those may import it may import too. */
export type RoomPlan = Record<string, readonly string[]>

/** The room of a module: the longest room name that is the module itself or a folder holding it. */
export function roomOf(plan: RoomPlan, module: string): string | undefined {
  return Object.keys(plan)
    .filter((room) => module === room || module.startsWith(`${room}/`))
    .sort((a, b) => b.length - a.length)[0]
}

/** Every room a room may import, however far down: the plan's arrows followed to their ends. */
export function roomsBelow(plan: RoomPlan, room: string, path: string[] = []): Set<string> {
  if (path.includes(room)) throw new Error(`The plan of rooms goes round: ${[...path, room].join(' → ')}`)
  const below = new Set<string>()
  for (const next of plan[room] ?? []) {
    if (plan[next] === undefined) throw new Error(`The plan names ${next} below ${room}, and no such room`)
    below.add(next)
    for (const further of roomsBelow(plan, next, [...path, room])) below.add(further)
  }
  return below
}

/** An import that goes where the plan has no way down: `engine/x.ts → server/y.ts (engine may not import server)`. */
export interface UpwardImport {
  from: string
  to: string
  fromRoom: string
  toRoom: string
}

/** The imports of a graph that leave their room for one the plan does not put below it. */
export function findUpwardImports(graph: ImportGraph, plan: RoomPlan): UpwardImport[] {
  const upward: UpwardImport[] = []
  for (const [from, imports] of graph) {
    const fromRoom = roomOf(plan, from)
    if (fromRoom === undefined) continue
    const below = roomsBelow(plan, fromRoom)
    for (const to of imports) {
      const toRoom = roomOf(plan, to)
      if (toRoom === undefined || toRoom === fromRoom || below.has(toRoom)) continue
      upward.push({ from, to, fromRoom, toRoom })
    }
  }
  return upward
}
