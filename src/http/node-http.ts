/**
 * node:http, taken as the CommonJS module it is. An ECMAScript `import … from 'node:http'` builds a
 * namespace of all its exports, and reading them loads node's bundled fetch client (undici) on Node 22
 * and 24: about 25 ms of the mock's cold start, for a client no server here uses. Every module that
 * needs node:http's values imports them from here; types still come from 'node:http' itself.
 */
import type * as NodeHttp from 'node:http'

const http = process.getBuiltinModule('node:http')

export const { Agent, createServer, request } = http
export type Agent = NodeHttp.Agent
