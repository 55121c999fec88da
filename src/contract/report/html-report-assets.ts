import { createHash } from 'node:crypto'

// The HTML report's only style and script, inline: the page is one file that opens offline. Its
// Content-Security-Policy allows these two by their hashes and nothing else, so even markup that slipped
// past escaping could neither run a script nor load anything.

export const REPORT_STYLE = `
:root { color-scheme: light dark; --passed: #1a7f37; --failed: #cf222e; --skipped: #9a6700; --line: #8884; }
[hidden] { display: none !important; }
body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 75rem; padding: 1rem 1.5rem 4rem; }
h1 { font-size: 1.5rem; margin: 0.5rem 0; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 0.5rem; border-bottom: 1px solid var(--line); padding-bottom: 0.25rem; }
.summary { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0.5rem 0 1rem; }
.summary dt { font-weight: 600; }
.summary dd { margin: 0; overflow-wrap: anywhere; }
.verdict-passed { color: var(--passed); }
.verdict-failed, .verdict-could-not-run { color: var(--failed); }
.note { border-left: 4px solid var(--skipped); padding-left: 0.75rem; }
.filters { position: sticky; top: 0; display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center;
  padding: 0.5rem 0; background: Canvas; border-bottom: 1px solid var(--line); }
.filters button { font: inherit; padding: 0.2rem 0.7rem; border: 1px solid var(--line); border-radius: 1rem;
  background: none; color: inherit; cursor: pointer; }
.filters button[aria-pressed='true'] { background: #0969da; border-color: #0969da; color: #fff; }
.filters input { font: inherit; padding: 0.2rem 0.5rem; min-width: 16rem; flex: 1; }
.counts { font-weight: normal; font-size: 0.9rem; opacity: 0.8; }
.checks { list-style: none; margin: 0; padding: 0; }
.check { padding: 0.35rem 0 0.35rem 0.75rem; border-left: 4px solid var(--line); margin: 0.25rem 0; }
.check[data-status='passed'] { border-color: var(--passed); }
.check[data-status='failed'] { border-color: var(--failed); }
.check[data-status='skipped'] { border-color: var(--skipped); }
.status { font-weight: 600; margin-right: 0.4rem; }
.check[data-status='passed'] .status { color: var(--passed); }
.check[data-status='failed'] .status { color: var(--failed); }
.check[data-status='skipped'] .status { color: var(--skipped); }
.where { display: block; font-size: 0.85rem; opacity: 0.75; }
.reason { margin: 0.2rem 0 0; font-style: italic; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #8881; padding: 0.5rem; margin: 0.3rem 0; }
.curl { background: #0969da22; font-weight: 600; }
`

export const REPORT_SCRIPT = `
(() => {
  const checks = [...document.querySelectorAll('.check')]
  const groups = [...document.querySelectorAll('.group')]
  const buttons = [...document.querySelectorAll('[data-filter]')]
  const text = document.getElementById('text-filter')
  const shown = document.getElementById('shown')
  let status = 'all'
  const apply = () => {
    const words = text.value.trim().toLowerCase()
    let count = 0
    for (const check of checks) {
      const visible =
        (status === 'all' || check.dataset.status === status) &&
        (words === '' || check.textContent.toLowerCase().includes(words))
      check.hidden = !visible
      if (visible) count += 1
    }
    for (const group of groups) group.hidden = !group.querySelector('.check:not([hidden])')
    for (const button of buttons) button.setAttribute('aria-pressed', String(button.dataset.filter === status))
    shown.textContent = count + ' of ' + checks.length + ' checks shown'
  }
  for (const button of buttons)
    button.addEventListener('click', () => {
      status = button.dataset.filter
      apply()
    })
  text.addEventListener('input', apply)
  document.querySelector('.filters').hidden = false
  apply()
})()
`

/** The page's policy: its own style and script, by hash; nothing else, from anywhere. */
export const REPORT_CSP = [
  "default-src 'none'",
  `style-src '${sha256(REPORT_STYLE)}'`,
  `script-src '${sha256(REPORT_SCRIPT)}'`,
  "base-uri 'none'",
  "form-action 'none'",
].join('; ')

function sha256(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`
}
