import { readFile } from 'node:fs/promises'
import type { FastifyInstance } from 'fastify'

/** The pages /docs links to, as the package ships them (the same paths from src/ and dist/). */
const PAGES = {
  '/docs/contract': { file: '../../docs/contract.md', title: 'The users API contract' },
  '/docs/readme': { file: '../../README.md', title: 'users-api-kit' },
} as const

/**
 * docs/contract.md and the README as pages of the mock, rendered from the package's own files on the
 * first request (marked: a well-kept Markdown renderer; the files are the kit's, not a user's input).
 */
export function registerDocPages(app: FastifyInstance): void {
  for (const [url, page] of Object.entries(PAGES)) {
    let html: Promise<string> | undefined
    app.get(url, async (_request, reply) => {
      html ??= renderPage(new URL(page.file, import.meta.url), page.title)
      return reply.type('text/html; charset=utf-8').send(await html)
    })
  }
}

async function renderPage(file: URL, title: string): Promise<string> {
  const [{ marked }, markdown] = await Promise.all([import('marked'), readFile(file, 'utf8')])
  const body = await marked.parse(markdown, { gfm: true })
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · users-api-kit</title>
<style>body{font:16px/1.55 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1f2328}
table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:.3rem .6rem}code{background:#f6f8fa;padding:0 .2rem}
pre{background:#f6f8fa;padding:.8rem;overflow:auto}a{color:#0969da}</style></head>
<body><p><a href="/docs">← the interactive reference</a></p>
${body}
</body></html>
`
}
