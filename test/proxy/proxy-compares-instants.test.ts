import { describe, expect, test } from 'vitest'
import { compareInstants, compareListOrder } from '../../src/proxy/list-order.js'

// The proxy compares createdAt and updatedAt on every answer: texts written alike compare as text, any
// other pair as the instants they name.

describe('compareInstants', () => {
  test('texts written alike compare as text', () => {
    expect(compareInstants('2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z')).toBe(0)
    expect(compareInstants('2024-01-01T00:00:00.001Z', '2024-01-01T00:00:00.000Z')).toBe(1)
    expect(compareInstants('2023-12-31T23:59:59Z', '2024-01-01T00:00:00Z')).toBe(-1)
  })

  test('the same instant in other precisions or offsets is the same', () => {
    expect(compareInstants('2024-01-01T00:00:00Z', '2024-01-01T00:00:00.000Z')).toBe(0)
    expect(compareInstants('2024-01-01T01:00:00+01:00', '2024-01-01T00:00:00Z')).toBe(0)
    expect(compareInstants('2024-01-01T00:00:00.5Z', '2024-01-01T00:00:00.499Z')).toBe(1)
    expect(compareInstants('2024-01-01t00:00:00z', '2024-01-01T00:00:01Z')).toBe(-1)
  })

  test('a text that is no date-time compares to nothing, itself included', () => {
    expect(compareInstants('yesterday', 'yesterday')).toBeUndefined()
    expect(compareInstants('2024-01-01T00:00:00Z', 42)).toBeUndefined()
    expect(compareInstants(undefined, undefined)).toBeUndefined()
  })

  test('the list order: createdAt, then id', () => {
    const at = '2024-01-01T00:00:00.000Z'
    expect(compareListOrder({ id: 'b', createdAt: at }, { id: 'a', createdAt: '2024-01-01T00:00:00Z' })).toBe(1)
    expect(compareListOrder({ id: 'a', createdAt: at }, { id: 'a', createdAt: at })).toBe(0)
  })
})
