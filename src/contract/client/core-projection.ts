/**
 * What `verify --only core` holds a backend to: the document's schemas with every property it marks
 * `x-contract: profile` made optional and unchecked (response-schemas.ts compiles them).
 */
import type { ContractLayer } from '../../spec/operations.js'

/** The layer of an operation, a property or a header: `core` where it says `x-contract: core`, else `profile`. */
export function layerOf(element: unknown): ContractLayer {
  return (element as { 'x-contract'?: unknown } | null)?.['x-contract'] === 'core' ? 'core' : 'profile'
}

/** Keywords whose values are data, not schemas: copied as they are. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'example', 'examples'])

/** Property name → whether some schema declares it core. */
type Declarations = Map<string, boolean>

/**
 * A copy of a schema where profile properties are optional and unchecked. A property is profile
 * unless it (or the schema it is, a `$ref` resolved in place) says `x-contract: core`; a boolean
 * property schema (`errors: false`) cannot say so and is profile. `required` in one `allOf` branch
 * follows the layer of the property where a sibling branch declares it. Schemas are dereferenced
 * trees that may share nodes or cycle; the copy keeps both by memo.
 *
 * @example
 * projectCore({ required: ['id', 'status'], properties: { id: { 'x-contract': 'core' }, status: {} } })
 * // { required: ['id'], properties: { id: { 'x-contract': 'core' }, status: true } }
 */
export function projectCore(schema: object): object {
  return projectNode(schema, new Map(), new Map())
}

function projectNode(schema: object, siblings: Declarations, memo: Map<object, Map<string, object>>): object {
  const contextKey = JSON.stringify([...siblings].sort())
  const known = memo.get(schema)?.get(contextKey)
  if (known) return known
  const remember = (copy: object): void => {
    memo.set(schema, (memo.get(schema) ?? new Map<string, object>()).set(contextKey, copy))
  }
  if (Array.isArray(schema)) {
    const copy: unknown[] = []
    remember(copy)
    for (const item of schema) copy.push(isObject(item) ? projectNode(item, new Map(), memo) : item)
    return copy
  }
  const copy: Record<string, unknown> = {}
  remember(copy)
  const own = declarationsOf(schema)
  const all = mergeDeclarations(siblings, own, ...allOfBranches(schema).map((branch) => collectDeclarations(branch)))
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'required' && Array.isArray(value)) {
      copy.required = value.filter((name) => (own.get(String(name)) ?? all.get(String(name))) !== false)
    } else if (key === 'properties' && isObject(value)) {
      copy.properties = Object.fromEntries(
        Object.entries(value).map(([name, property]) => [
          name,
          own.get(name) === true && isObject(property) ? projectNode(property, new Map(), memo) : true,
        ]),
      )
    } else if (key === 'allOf' && Array.isArray(value)) {
      copy.allOf = value.map((branch) => (isObject(branch) ? projectNode(branch, all, memo) : branch))
    } else if (DATA_KEYWORDS.has(key) || !isObject(value)) {
      copy[key] = value
    } else {
      copy[key] = projectNode(value, new Map(), memo)
    }
  }
  return copy
}

/** The properties a schema declares itself, with whether each is core. */
function declarationsOf(schema: object): Declarations {
  const properties = (schema as { properties?: unknown }).properties
  if (!isObject(properties)) return new Map()
  return new Map(Object.entries(properties).map(([name, property]) => [name, isCoreProperty(property)]))
}

/** The properties a schema declares, itself or through its `allOf` branches, at any depth. */
function collectDeclarations(schema: object, seen = new Set<object>()): Declarations {
  if (seen.has(schema)) return new Map()
  seen.add(schema)
  return mergeDeclarations(
    declarationsOf(schema),
    ...allOfBranches(schema).map((branch) => collectDeclarations(branch, seen)),
  )
}

function allOfBranches(schema: object): object[] {
  const allOf = (schema as { allOf?: unknown }).allOf
  return Array.isArray(allOf) ? allOf.filter(isObject) : []
}

/** A property declared core anywhere stays core: the layers only ever relax what the core requires. */
function mergeDeclarations(...lists: Declarations[]): Declarations {
  const merged: Declarations = new Map()
  for (const list of lists) for (const [name, core] of list) merged.set(name, merged.get(name) === true || core)
  return merged
}

/** A property is core when it, or the schema it is (a `$ref` resolved in place), says so. */
function isCoreProperty(property: unknown): boolean {
  return isObject(property) && layerOf(property) === 'core'
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null
}
