import { mkdtemp, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { startMock } from '../../src/server/start-mock.js'
import { freePort } from '../support/free-port.js'

// A start that fails after listening leaves no server holding its port (a test runner could not exit).

test('fixtures without an active owner: startMock rejects saying why, and the port is free again', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'users-api-kit-no-owner-'))
  const fixtures = join(directory, 'viewers.json')
  const at = '2024-01-01T00:00:00.000Z'
  await writeFile(
    fixtures,
    JSON.stringify({
      organizations: [{ id: 'org_a', name: 'A' }],
      users: [
        {
          id: 'usr_v',
          email: 'v@a.example',
          name: 'V',
          role: 'CLIENT_VIEWER',
          organizationId: 'org_a',
          status: 'ACTIVE',
          createdAt: at,
          updatedAt: at,
          token: 'v-token',
        },
      ],
    }),
  )
  const port = await freePort()
  await expect(startMock({ fixtures, port })).rejects.toThrow(/no ACTIVE CLIENT_OWNER/)
  const again = createServer()
  await new Promise<void>((resolve, reject) => {
    again.once('error', reject)
    again.listen(port, '127.0.0.1', resolve)
  })
  await new Promise((resolve) => again.close(resolve))
})
