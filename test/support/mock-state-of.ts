import type { FastifyInstance } from 'fastify'
import type { MockState } from '../../src/domain/mock-state.js'
import { injectApi } from './inject-api.js'

/** The whole state of a mock app (`GET /__mock/state`): to prove that a refused request changed nothing. */
export async function mockStateOf(app: FastifyInstance): Promise<MockState> {
  return (await injectApi<MockState>(app, { url: '/__mock/state' })).body
}
