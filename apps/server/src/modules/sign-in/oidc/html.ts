/**
 * A tagged template that escapes every interpolated value unless it is
 * already markup built by this template: escaping is the default, so a
 * forgotten call cannot open an injection.
 */
export class SafeHtml {
  readonly value: string
  constructor(value: string) {
    this.value = value
  }
  toString(): string {
    return this.value
  }
}

type Interpolation = SafeHtml | string | number | boolean | null | undefined | readonly Interpolation[]

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => entities[character] ?? character)
}

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false || value === true) return ''
  if (value instanceof SafeHtml) return value.value
  if (Array.isArray(value)) return value.map(render).join('')
  return escapeHtml(String(value))
}

export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0] ?? ''
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '')
  })
  return new SafeHtml(out)
}

/** For markup that is ours and constant (the oidc-provider logout form is one). */
export function trustedHtml(markup: string): SafeHtml {
  return new SafeHtml(markup)
}
