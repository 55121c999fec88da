import { startOnFirst200 } from './first-200.js'
import { measureAlternately, poolRuns } from './load.js'
import { OWNER, fetchText } from './mock-http.js'
import type { Report, Settings } from './report.js'
import { MOCK_CLI, mockLaunch, readMemory, startServer, type ServerProcess } from './server-process.js'

/** Part 7's requests: the same ones, to the mock direct and through `users-api-kit proxy` in front of it. */
const ROUTES = [
  { label: 'GET /api/users/me', path: '/api/users/me' },
  { label: 'GET /api/users?limit=20', path: '/api/users?limit=20' },
]

/**
 * Part 7: what `users-api-kit proxy` costs a request. One mock (`--quiet`), and the proxy in its own
 * process in front of it; each request alternately direct and through the proxy, under the same load.
 * The proxy's CPU per request is its process's alone (the mock works the same either way).
 */
export async function measureProxyOverhead(settings: Settings): Promise<Report['proxy']> {
  let mock: ServerProcess | undefined
  let proxy: ServerProcess | undefined
  try {
    mock = await startServer(mockLaunch(['--port', '0']))
    const upstream = mock.url
    // The proxy prints no "listening" line the bench reads: its banner goes to a discarded stdout.
    proxy = await startOnFirst200(
      (port) => ({ args: [MOCK_CLI, 'proxy', '--upstream', upstream, '--port', String(port)], stdout: 'discard' }),
      '/api/users/me',
      OWNER,
    )
    for (const route of ROUTES) {
      if ((await fetchText(`${proxy.url}${route.path}`)) !== (await fetchText(`${mock.url}${route.path}`)))
        throw new Error(`${route.path}: the proxy's answer differs from the mock's.`)
    }
    const rows: Report['proxy']['rows'] = []
    for (const route of ROUTES) {
      const runs = await measureAlternately(
        [
          ['direct', mock],
          ['proxied', proxy],
        ],
        route.path,
        settings,
        (name, round) =>
          `bench: ${route.label} → ${name === 'direct' ? 'mock' : 'proxy → mock'}, round ${round}/${settings.rounds}`,
      )
      rows.push({ label: route.label, direct: poolRuns(runs.direct), proxied: poolRuns(runs.proxied) })
    }
    const counts = (
      JSON.parse(await fetchText(`${proxy.url}/__proxy/violations`)) as { counts: Report['proxy']['counts'] }
    ).counts
    return { rows, memory: await readMemory(proxy.pid), counts }
  } finally {
    await Promise.all([proxy?.stop(), mock?.stop()])
  }
}
