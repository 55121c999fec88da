import type { FastifyInstance } from 'fastify'
import { injectApi } from './inject-api.js'

/**
 * Fresh ACTIVE CLIENT_VIEWERs of the first organization (as `POST /__mock/target` creates them), that a
 * test may change and delete.
 */
export async function addDisposableUsers(
  app: FastifyInstance,
  count = 1,
): Promise<Array<{ id: string; token: string }>> {
  const target = await injectApi<{ disposable: Array<{ id: string; token: string }> }>(app, {
    method: 'POST',
    url: `/__mock/target?disposable=${count}`,
  })
  return target.body.disposable
}
