// What `require('users-api-kit')` (and /fetch, /msw) loads: package.json's `require` condition. The kit is
// ECMAScript modules only; without this, Node says "No "exports" main defined", and jest and other
// CommonJS loaders fail further on. One line that says what to write instead.
throw new Error(
  "users-api-kit is an ES module, which require() does not load: write import { startMock } from 'users-api-kit' (or 'users-api-kit/fetch', 'users-api-kit/msw'), or from CommonJS await import('users-api-kit').",
)
