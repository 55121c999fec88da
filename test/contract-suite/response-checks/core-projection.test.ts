import type { OpenAPIV3_1 } from 'openapi-types'
import { describe, expect, test } from 'vitest'
import { projectCore } from '../../../src/contract/client/core-projection.js'
import { documentedResponse, ResponseSchemas } from '../../../src/contract/client/response-schemas.js'
import { aUser, loadOperations, omit } from '../../support/exchange-builder.js'

const operations = await loadOperations()
const getCurrentUser = operations.find((operation) => operation.operationId === 'getCurrentUser')
const envelope = getCurrentUser && documentedResponse(getCurrentUser, 200)?.content?.['application/json']?.schema
if (!envelope) throw new Error('getCurrentUser 200 application/json has no schema')
const core = new ResponseSchemas('core')
const all = new ResponseSchemas('all')

describe('ResponseSchemas under core ignores profile properties (x-contract)', () => {
  test('a User without status (profile) passes under core and fails under all, naming the key', () => {
    const withoutStatus = omit(aUser(), 'status')
    expect(core.validate(envelope, { data: withoutStatus })).toEqual([])
    expect(all.validate(envelope, { data: withoutStatus })).toEqual([
      { pointer: '/data/status', message: 'is required', value: undefined },
    ])
  })

  test('a profile property of the wrong shape is not checked under core', () => {
    const user = aUser({ status: 'GONE', createdAt: 'yesterday' })
    expect(core.validate(envelope, { data: user })).toEqual([])
    expect(all.validate(envelope, { data: user }).map((failure) => failure.pointer)).toEqual(
      expect.arrayContaining(['/data/status', '/data/createdAt']),
    )
  })

  test('core properties stay required and checked under core', () => {
    const withoutEmail = omit(aUser({ role: 'ROOT' }), 'email')
    expect(core.validate(envelope, { data: withoutEmail })).toEqual([
      { pointer: '/data/email', message: 'is required', value: undefined },
      {
        pointer: '/data/role',
        message: 'must be one of CLIENT_OWNER, CLIENT_ADMIN, CLIENT_VIEWER, BOT_USER',
        value: 'ROOT',
      },
    ])
    expect(core.validate(envelope, {})).toEqual([{ pointer: '/data', message: 'is required', value: undefined }])
  })
})

describe('projectCore', () => {
  const coreString = { type: 'string', 'x-contract': 'core' }

  test('required of an allOf branch follows the layer where a sibling branch declares the property', () => {
    const schema = {
      allOf: [
        { type: 'object', properties: { id: coreString, note: { type: 'string' } } },
        { type: 'object', required: ['id', 'note', 'undeclared'] },
      ],
    } as OpenAPIV3_1.SchemaObject
    const body = { id: 'usr_1', undeclared: 1 }
    expect(new ResponseSchemas('core').validate(schema, body)).toEqual([])
    expect(new ResponseSchemas('core').validate(schema, { note: 'n', undeclared: 1 })).toEqual([
      { pointer: '/id', message: 'is required', value: undefined },
    ])
    expect(new ResponseSchemas('all').validate(schema, body)).toEqual([
      { pointer: '/note', message: 'is required', value: undefined },
    ])
  })

  test('a boolean property schema (errors: false) is profile', () => {
    const schema = { type: 'object', properties: { errors: false } } as unknown as OpenAPIV3_1.SchemaObject
    expect(new ResponseSchemas('core').validate(schema, { errors: [] })).toEqual([])
    expect(new ResponseSchemas('all').validate(schema, { errors: [] })).toHaveLength(1)
  })

  test('data keywords (const, enum, default, examples) are copied, not projected', () => {
    const value = { required: ['a'], properties: { a: { type: 'string' } } }
    const schema = { 'x-contract': 'core', const: value, enum: [value], default: value, examples: [value] }
    const projected = projectCore({ type: 'object', properties: { kind: schema } }) as {
      properties: { kind: typeof schema }
    }
    expect(projected.properties.kind).toEqual(schema)
  })

  test('shared and cyclic nodes stay shared and cyclic', () => {
    const node: { type: string; 'x-contract': string; properties: Record<string, unknown> } = {
      type: 'object',
      'x-contract': 'core',
      properties: {},
    }
    node.properties.parent = node
    node.properties.child = node
    const projected = projectCore(node) as { properties: Record<string, unknown> }
    expect(projected.properties.parent).toBe(projected)
    expect(projected.properties.child).toBe(projected)
  })
})
