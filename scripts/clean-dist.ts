import { rm } from 'node:fs/promises'

// tsc only ever adds to dist/: a module removed from src/ would stay there, and be packed and shipped.
await rm(new URL('../dist', import.meta.url), { recursive: true, force: true })
