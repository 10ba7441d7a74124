/**
 * What a test needs to know of an e-mail's HTML (mail-html.ts), read with
 * plain patterns: the document's language, the button's link and label,
 * every link, and the text a reader sees (tags dropped, entities decoded).
 * Enough for our own, regular markup; not a general HTML parser.
 */
export interface MailStructure {
  lang: string | null
  colorSchemeMeta: boolean
  darkModeRules: boolean
  buttons: Array<{ href: string; label: string }>
  links: string[]
  visibleText: string
}

function decodeEntities(value: string): string {
  return value
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

export function mailStructure(html: string): MailStructure {
  const body = html.slice(html.indexOf('<body'))
  return {
    lang: /<html[^>]*\blang="([^"]+)"/.exec(html)?.[1] ?? null,
    colorSchemeMeta:
      /<meta name="color-scheme" content="light dark">/.test(html) &&
      /<meta name="supported-color-schemes" content="light dark">/.test(html),
    darkModeRules: /@media \(prefers-color-scheme: dark\)/.test(html),
    buttons: [...body.matchAll(/<a href="([^"]*)" class="pm-button"[^>]*>([^<]*)<\/a>/g)].map((match) => ({
      href: decodeEntities(match[1]!),
      label: decodeEntities(match[2]!),
    })),
    links: [...body.matchAll(/<a href="([^"]*)"/g)].map((match) => decodeEntities(match[1]!)),
    visibleText: decodeEntities(
      body
        .replace(/<div style="display:none[^"]*">.*?<\/div>/s, '')
        .replace(/<br>/g, '\n')
        // Inline tags join their words; block tags part them.
        .replace(/<\/?(a|strong)\b[^>]*>/g, '')
        .replace(/<[^>]+>/g, ' ')
        .replace(/[ \t]+/g, ' '),
    ),
  }
}
