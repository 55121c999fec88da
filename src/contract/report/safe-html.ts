/** Markup the kit wrote itself, or text already escaped: `renderHtml` inserts it as it is. */
export class SafeHtml {
  constructor(readonly markup: string) {}

  toString(): string {
    return this.markup
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/**
 * Text as HTML shows it, never as markup: safe in element content and in quoted attribute values.
 *
 * @example
 * escapeHtml('<img src=x onerror=alert(1)>') // '&lt;img src=x onerror=alert(1)&gt;'
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character)
}

/**
 * A template of markup whose every value is escaped, unless it is `SafeHtml` (what another such
 * template made); arrays are joined, `undefined`, `null` and `false` are nothing. What a server sent
 * can only ever become text: nothing has to remember to escape it. (Not named `html`: Prettier would
 * reformat the templates, white space inside <pre> and the hashed <style> and <script> included.)
 *
 * @example
 * renderHtml`<p>${'<script>alert(1)</script>'}</p>`.markup // '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'
 */
export function renderHtml(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let markup = strings[0] ?? ''
  values.forEach((value, index) => {
    markup += toMarkup(value) + (strings[index + 1] ?? '')
  })
  return new SafeHtml(markup)
}

function toMarkup(value: unknown): string {
  if (value instanceof SafeHtml) return value.markup
  if (Array.isArray(value)) return value.map(toMarkup).join('')
  if (value === undefined || value === null || value === false) return ''
  return escapeHtml(String(value))
}
