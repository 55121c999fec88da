import { request, type Agent } from 'node:http'

/**
 * A rename sent as the owner on the agent's kept-alive connections: its status, or the error's code when the
 * connection failed (a reset is a finding, not a crash of the test).
 */
export function renameOnAgent(url: string, agent: Agent, id: string, name: string): Promise<number | string> {
  return new Promise((resolve) => {
    const outgoing = request(
      `${url}/api/users/${id}`,
      {
        method: 'PATCH',
        agent,
        headers: { authorization: 'Bearer owner-token', 'content-type': 'application/json' },
      },
      (response) => {
        response.resume()
        response.on('end', () => resolve(response.statusCode ?? 0))
        response.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
      },
    )
    outgoing.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
    outgoing.end(JSON.stringify({ name }))
  })
}
