import { documentedPathOf } from '../client/exchange.js'
import { defineCheck } from './define-check.js'
import { METHODS_OF_EVERY_RESOURCE } from '../../http/methods.js'

/** RFC 9110 §5.6.2: a method is a token. */
const METHOD = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

export const allowOn405 = defineCheck({
  name: 'allow-on-405',
  rule: "A 405 carries Allow, a list of methods without the request's own; on /api/users/me exactly GET (docs/contract.md §4)",
  layer: 'core',
  covers: ['§4.other.405', '§4.me.405'],
  verify(exchange) {
    const { request, response } = exchange
    if (response.status !== 405) return undefined
    const allow = response.headers['allow']
    if (allow === undefined) return 'Received: no Allow header\nDocumented: Allow, the methods the path answers'
    const methods = allow.split(',').map((method) => method.trim())
    if (methods.some((method) => !METHOD.test(method))) {
      return `Received: Allow: ${allow}\nDocumented: Allow, a comma-separated list of methods`
    }
    const own = request.method.toUpperCase()
    if (methods.some((method) => method.toUpperCase() === own)) {
      return `Received: Allow: ${allow} on a 405 to ${own}\nDocumented: the methods the path answers, which are not ${own}`
    }
    const documented = methods.filter((method) => !METHODS_OF_EVERY_RESOURCE.includes(method.toUpperCase()))
    if (documentedPathOf(exchange).endsWith('/api/users/me') && documented.join() !== 'GET') {
      return `Received: Allow: ${allow} on /api/users/me\nDocumented: Allow: GET`
    }
    return undefined
  },
})
