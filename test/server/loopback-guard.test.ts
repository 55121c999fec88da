import { expect, test } from 'vitest'
import { isLoopbackAddress, isLoopbackHost, isLoopbackName } from '../../src/http/loopback-guard.js'

// One loopback rule for the mock's --host warning, its control routes' Host guard, the proxy's own routes
// and the webhook senders' address checks.

test('loopback addresses: 127.0.0.0/8 and ::1, IPv4-mapped too; nothing else, and no name', () => {
  for (const address of ['127.0.0.1', '127.255.0.9', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1'])
    expect(isLoopbackAddress(address), address).toBe(true)
  for (const address of ['128.0.0.1', '10.0.0.1', '::2', '::ffff:10.0.0.1', 'localhost', '127.foo', '', undefined])
    expect(isLoopbackAddress(address), String(address)).toBe(false)
})

test('hosts to bind: localhost and loopback addresses, IPv6 bare or in brackets; no other name', () => {
  for (const name of ['localhost', 'LOCALHOST', '127.0.0.1', '::1', '[::1]'])
    expect(isLoopbackName(name), name).toBe(true)
  for (const name of [
    '0.0.0.0',
    '::',
    'example.com',
    'localhost.example.com',
    '[::2]',
    'app.localhost',
    '127.0.0.1.evil.com',
  ])
    expect(isLoopbackName(name), name).toBe(false)
})

test('Host headers, with or without a port', () => {
  for (const host of ['localhost:3000', 'localhost', '127.0.0.1:80', '[::1]:3000', '[::1]', 'a.localhost:1'])
    expect(isLoopbackHost(host), host).toBe(true)
  for (const host of ['evil.example:3000', 'evil.example', '[::2]:3000', '10.0.0.1:80', '::1'])
    expect(isLoopbackHost(host), host).toBe(false)
})
