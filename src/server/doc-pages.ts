import { existsSync, readdirSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import type { FastifyInstance } from 'fastify'
import { readPackageManifest } from '../files/read-package-manifest.js'

/** The package's own Markdown pages (the same paths from src/ and dist/). */
const ROOT = new URL('../..', import.meta.url)

/** `/docs/readme` is the README; `/docs/NAME` is docs/NAME.md (contract, mock, contract-suite, …). */
function listPages(): Map<string, URL> {
  const pages = new Map<string, URL>([['readme', new URL('README.md', ROOT)]])
  const folder = new URL('docs/', ROOT)
  const names = existsSync(folder) ? readdirSync(folder) : []
  for (const name of names.filter((file) => /^[a-z0-9-]+\.md$/.test(file))) {
    pages.set(name.slice(0, -'.md'.length), new URL(name, folder))
  }
  return pages
}

/**
 * The README and the pages of docs/ as pages of the mock, rendered from the package's own files on the
 * first request (marked: a well-kept Markdown renderer; the files are the kit's, not a user's input).
 * Links between them are rewritten to these pages, so that they work in the browser too; links to the
 * kit's other files (examples/, schemas/, decisions) to the file in the kit's repository, which the mock
 * does not serve. Each is a route of its own: /docs/json and the rest of the reference's own paths stay
 * the reference's.
 */
export function registerDocPages(app: FastifyInstance): void {
  const pages = listPages()
  for (const [page, file] of pages) {
    let html: Promise<string> | undefined
    app.get(`/docs/${page}`, async (_request, reply) => {
      html ??= renderPage(file, new Set(pages.keys()), page === 'readme' ? '' : 'docs/')
      return reply.type('text/html; charset=utf-8').send(await html)
    })
  }
}

/**
 * Links between the README and docs/ pages, and to the document, as the mock serves them; any other
 * relative link (a file of the kit, resolved from `folder`, the page's own) to that file in `repository`.
 */
function rewriteLinks(html: string, pages: ReadonlySet<string>, folder: string, repository: string): string {
  return html
    .replace(/href="(?:\.\.\/|\.\/)*(?:docs\/)?([a-zA-Z0-9-]+)\.md(#[^"]*)?"/g, (link, name: string, anchor = '') => {
      const page = name === 'README' ? 'readme' : name
      return pages.has(page) ? `href="/docs/${page}${anchor}"` : link
    })
    .replace(/href="(?:\.\.\/|\.\/)*openapi\/users\.yaml"/g, 'href="/openapi.yaml"')
    .replace(/href="(?![a-z][a-z0-9+.-]*:|\/|#)([^"]+)"/gi, (_link, target: string) => {
      const path = new URL(target, `file:///${folder}`).pathname.slice(1)
      return `href="${repository}/${path.endsWith('/') ? 'tree' : 'blob'}/main/${path}"`
    })
}

/** The kit's repository on the web (package.json's `repository`), for the files the mock does not serve. */
async function readRepositoryUrl(): Promise<string> {
  const url = (await readPackageManifest()).repository?.url ?? ''
  return url.replace(/^git\+/, '').replace(/\.git$/, '')
}

async function renderPage(file: URL, pages: ReadonlySet<string>, folder: string): Promise<string> {
  const [{ marked }, markdown, repository] = await Promise.all([
    import('marked'),
    readFile(file, 'utf8'),
    readRepositoryUrl(),
  ])
  const body = rewriteLinks(await marked.parse(markdown, { gfm: true }), pages, folder, repository)
  const heading = /^# (.+)$/m.exec(markdown)?.[1] ?? 'users-api-kit'
  const title = heading === 'users-api-kit' ? heading : `${heading} · users-api-kit`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>body{font:16px/1.55 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1f2328}
table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:.3rem .6rem}code{background:#f6f8fa;padding:0 .2rem}
pre{background:#f6f8fa;padding:.8rem;overflow:auto}a{color:#0969da}</style></head>
<body><p><a href="/docs">← the interactive reference</a></p>
${body}
</body></html>
`
}
