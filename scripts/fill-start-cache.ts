// Build step: the default document and the default seed, loaded once into dist/start-cache, so that a
// first start of the mock on a fresh machine reads them instead of parsing YAML and running faker.
import { createMockApp } from '../dist/index.js'
import { PREBUILT_CACHE_DIR } from '../dist/start-cache.js'

process.env.USERS_API_KIT_CACHE_DIR = PREBUILT_CACHE_DIR
process.env.USERS_API_KIT_CACHE = 'on'
const { app } = await createMockApp()
await app.close()
console.log(`Start cache filled: ${PREBUILT_CACHE_DIR}`)
