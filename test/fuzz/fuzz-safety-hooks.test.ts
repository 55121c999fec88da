import { join } from 'node:path'
import { execa } from 'execa'
import { describe, expect, test } from 'vitest'
import { HOOKS_FILE, PACKAGE_ROOT } from '../../src/fuzz/fuzz-files.js'

// The safety guard of src/fuzz/schemathesis-hooks.py, called the way Schemathesis calls it before every
// request (stateful steps included, once a link has filled the path), with the virtualenv's Python.
const PYTHON = join(PACKAGE_ROOT, '.venv', process.platform === 'win32' ? 'Scripts/python.exe' : 'bin/python')

const POOL = [
  { id: 'usr_d1', token: 'tok_d1' },
  { id: 'usr_d2', token: 'tok_d2' },
  { id: 'usr_d3', token: 'tok_d3' },
  { id: 'usr_d4', token: 'tok_d4' },
  { id: 'usr_d5', token: 'tok_d5' },
]
// Targets are all but the last (the identity of id-less writes); PATCH gets the first half, DELETE the rest.
const CHANGE_TARGETS = ['usr_d1', 'usr_d2']
const DELETE_TARGETS = ['usr_d3', 'usr_d4']

interface Request {
  method: string
  path: string
  id?: string
  authorization?: string
}

interface Sent {
  id?: string
  authorization?: string
  refused?: string
}

const SCRIPT = `
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("hooks", sys.argv[1])
hooks = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hooks)

class Case:
    def __init__(self, request):
        self.method, self.path = request["method"], request["path"]
        self.path_parameters = {"id": request["id"]} if "id" in request else {}
        self.headers = {"Authorization": request["authorization"]} if "authorization" in request else {}

sent = []
for request in json.loads(sys.stdin.read()):
    case = Case(request)
    try:
        hooks.before_call(None, case)
        sent.append({"id": case.path_parameters.get("id"), "authorization": case.headers.get("Authorization")})
    except RuntimeError as error:
        sent.append({"refused": str(error)})
print(json.dumps(sent))
`

/** What the hooks let through for each request, in order (the rotation between targets is stateful). */
async function sendThroughHooks(requests: Request[], env: Record<string, string> = {}): Promise<Sent[]> {
  const result = await execa(PYTHON, ['-c', SCRIPT, HOOKS_FILE], {
    input: JSON.stringify(requests),
    env: {
      USERS_API_KIT_TOKEN: 'owner-token',
      USERS_API_KIT_DISPOSABLE: JSON.stringify(POOL),
      USERS_API_KIT_READ_ONLY: '0',
      ...env,
    },
  })
  return (JSON.parse(result.stdout) as Array<Record<string, string | null>>).map((sent) =>
    Object.fromEntries(Object.entries(sent).filter(([, value]) => value !== null)),
  )
}

const OWNER = 'Bearer owner-token'

describe('the safety hooks of users-api-kit fuzz', () => {
  test('send a PATCH of the owner (the first user of the list, as a link gives it) to a disposable user', async () => {
    const sent = await sendThroughHooks([
      { method: 'PATCH', path: '/api/users/{id}', id: 'usr_owner', authorization: OWNER },
      { method: 'PATCH', path: '/api/users/{id}', id: 'usr_owner', authorization: OWNER },
      { method: 'PATCH', path: '/api/users/{id}', id: 'usr_owner', authorization: OWNER },
    ])
    expect(sent.map((request) => request.id)).toEqual(['usr_d1', 'usr_d2', 'usr_d1'])
    expect(sent.every((request) => request.authorization === OWNER)).toBe(true)
  })

  test('send every DELETE to the disposable users set apart for deletion, so PATCH keeps live targets', async () => {
    const sent = await sendThroughHooks([
      { method: 'DELETE', path: '/api/users/{id}', id: 'usr_owner', authorization: OWNER },
      { method: 'DELETE', path: '/api/users/{id}', id: 'usr_d1', authorization: OWNER },
      { method: 'DELETE', path: '/api/users/{id}', id: 'usr_d4', authorization: OWNER },
    ])
    expect(sent.map((request) => request.id)).toEqual(['usr_d3', 'usr_d4', 'usr_d4'])
    for (const request of sent) expect(DELETE_TARGETS).toContain(request.id)
  })

  test('let a write to a disposable target through, and never change the identity user', async () => {
    const sent = await sendThroughHooks([
      { method: 'PATCH', path: '/api/users/{id}', id: 'usr_d3', authorization: OWNER },
      { method: 'PATCH', path: '/api/users/{id}', id: 'usr_d5', authorization: OWNER },
      { method: 'PUT', path: '/api/users/{id}', id: 'usr_admin', authorization: OWNER },
    ])
    expect(sent.map((request) => request.id)).toEqual(['usr_d3', 'usr_d1', 'usr_d2'])
    for (const request of sent.slice(1)) expect(CHANGE_TARGETS).toContain(request.id)
  })

  test('leave reads alone, whatever they address', async () => {
    const reads = ['GET', 'HEAD', 'OPTIONS', 'TRACE', 'QUERY'].map((method) => ({
      method,
      path: '/api/users/{id}',
      id: 'usr_owner',
      authorization: OWNER,
    }))
    expect(await sendThroughHooks(reads)).toEqual(reads.map(() => ({ id: 'usr_owner', authorization: OWNER })))
  })

  test("send a write that names no user (PATCH /api/users/me) with a disposable user's token, not the owner's", async () => {
    const sent = await sendThroughHooks([
      { method: 'PATCH', path: '/api/users/me', authorization: OWNER },
      { method: 'DELETE', path: '/api/users/me', authorization: OWNER },
      { method: 'POST', path: '/api/users', authorization: OWNER },
      // A case that tests a bad token keeps it.
      { method: 'DELETE', path: '/api/users/me', authorization: 'Bearer 0' },
    ])
    expect(sent).toEqual([
      { authorization: 'Bearer tok_d5' },
      { authorization: 'Bearer tok_d5' },
      { authorization: 'Bearer tok_d5' },
      { authorization: 'Bearer 0' },
    ])
  })

  test('refuse to send any write in a read-only run, or with no disposable user', async () => {
    const write = { method: 'DELETE', path: '/api/users/{id}', id: 'usr_owner', authorization: OWNER }
    const [readOnly] = await sendThroughHooks([write], { USERS_API_KIT_READ_ONLY: '1' })
    const [noPool] = await sendThroughHooks([write], { USERS_API_KIT_DISPOSABLE: '[]' })
    expect(readOnly?.refused).toMatch(/refused to send DELETE \/api\/users\/\{id\}/)
    expect(noPool?.refused).toMatch(/refused/)
  })
})
