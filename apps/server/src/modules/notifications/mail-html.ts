import { toLanguageTag } from '@pactum/domain/locales'
import type { MailContent, MailParagraph } from './mail-content.ts'

/**
 * The branded HTML of every e-mail Pactum sends (decision 100). Written for
 * mail clients, not browsers: tables for the layout (Outlook's Word engine
 * ignores most CSS), every style inline (Gmail drops <style> in some
 * views), no images (clients block remote ones, and the brand is the word
 * "Pactum" in its colour), one button made of a coloured table cell around
 * a link (it works where CSS does not) with its address printed beneath.
 *
 * Dark mode: the mail says it supports both schemes, and a
 * prefers-color-scheme block (plus Outlook.com's [data-ogsc] twin) swaps the
 * page, card and text colours. Clients that invert colours by themselves
 * still get dark text on light or the reverse, because nothing relies on a
 * background image or a transparent picture. The button keeps white on
 * #2949ce in both schemes (contrast about 7:1).
 *
 * Every value is escaped: descriptions, names and messages come from users.
 */

const brand = '#2949ce'
const font = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"
const colours = {
  page: '#f3f4f8',
  card: '#ffffff',
  border: '#dfe2ea',
  text: '#1b1d23',
  muted: '#555b69',
}

/** The dark scheme's colours: [selectors, declaration]. */
const darkRules: Array<[string[], string]> = [
  [['.pm-page'], 'background-color: #121316 !important;'],
  [['.pm-card'], 'background-color: #1d1f25 !important; border-color: #34373f !important;'],
  [['.pm-text'], 'color: #e7e9ef !important;'],
  [['.pm-muted'], 'color: #b3b8c5 !important;'],
  [['.pm-brand', '.pm-link'], 'color: #aebdff !important;'],
]

/** The dark rules, each selector under `prefix` (Outlook.com marks its dark mode with [data-ogsc]). */
function darkCss(prefix: string, indent: string): string {
  return darkRules
    .map(([selectors, declaration]) => `${indent}${selectors.map((one) => `${prefix}${one}`).join(', ')} { ${declaration} }`)
    .join('\n')
}

const styles = `
:root { color-scheme: light dark; supported-color-schemes: light dark; }
body { margin: 0; padding: 0; width: 100%; -webkit-text-size-adjust: 100%; }
a.pm-button:hover { background-color: #1f3aa8 !important; }
@media (prefers-color-scheme: dark) {
${darkCss('', '  ')}
}
${darkCss('[data-ogsc] ', '')}
@media (max-width: 620px) {
  .pm-card-cell { padding: 24px 18px !important; }
}`

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}

/** An address for href: only web and mail links, so no `javascript:` ever becomes clickable. */
function href(url: string): string {
  if (!/^(https?:\/\/|mailto:)/i.test(url)) throw new Error(`not a link an e-mail may carry: ${url.slice(0, 40)}`)
  return escapeHtml(url)
}

/** Escaped text whose line breaks stay line breaks (a quoted message). */
function textHtml(value: string): string {
  return escapeHtml(value).replace(/\r?\n/g, '<br>')
}

/** `template` with `{name}` replaced by a link to `url` that shows `shown`; the rest escaped. */
function withLink(template: string, name: string, url: string, shown: string): string {
  const [before = '', ...after] = template.split(`{${name}}`)
  const link = `<a href="${href(url)}" class="pm-link" style="color:${brand};text-decoration:underline;word-break:break-all;">${escapeHtml(shown)}</a>`
  return after.length === 0 ? textHtml(template) : `${textHtml(before)}${link}${textHtml(after.join(`{${name}}`))}`
}

const paragraphStyle = `margin:0 0 16px;font-family:${font};font-size:16px;line-height:1.5;color:${colours.text};`
const smallStyle = `margin:0 0 8px;font-family:${font};font-size:13px;line-height:1.5;color:${colours.muted};`

function paragraph(inner: string): string {
  return `<p class="pm-text" style="${paragraphStyle}">${inner}</p>`
}

function paragraphHtml(item: MailParagraph): string {
  return typeof item === 'string'
    ? paragraph(textHtml(item))
    : paragraph(
        `${textHtml(item.text)}<br><a href="${href(item.url)}" class="pm-link" style="color:${brand};text-decoration:underline;word-break:break-all;">${escapeHtml(item.url)}</a>`,
      )
}

function factsTable(facts: NonNullable<MailContent['facts']>): string {
  const rows = facts
    .map(
      ({ label, value }) =>
        `<tr><th scope="row" class="pm-muted" style="padding:4px 16px 4px 0;text-align:left;vertical-align:top;font-weight:normal;font-family:${font};font-size:14px;line-height:1.4;color:${colours.muted};white-space:nowrap;">${escapeHtml(label)}</th>` +
        `<td class="pm-text" style="padding:4px 0;vertical-align:top;font-family:${font};font-size:14px;line-height:1.4;color:${colours.text};word-break:break-word;">${textHtml(value)}</td></tr>`,
    )
    .join('')
  return `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 20px;border-collapse:collapse;">${rows}</table>`
}

function button(action: NonNullable<MailContent['action']>, fallback: string): string {
  const url = href(action.url)
  return (
    `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 16px;border-collapse:separate;">` +
    `<tr><td align="center" bgcolor="${brand}" style="border-radius:6px;background-color:${brand};">` +
    `<a href="${url}" class="pm-button" style="display:inline-block;padding:14px 28px;border:1px solid ${brand};border-radius:6px;background-color:${brand};font-family:${font};font-size:16px;font-weight:bold;line-height:1.2;color:#ffffff;text-decoration:none;">${escapeHtml(action.label)}</a>` +
    `</td></tr></table>` +
    `<p class="pm-muted" style="${smallStyle}margin-bottom:20px;">${escapeHtml(fallback)}<br>` +
    `<a href="${url}" class="pm-link" style="color:${brand};text-decoration:underline;word-break:break-all;">${escapeHtml(action.url)}</a></p>`
  )
}

export function renderMailHtml(content: MailContent): string {
  const { words } = content
  const footer = [
    content.reason,
    ...(content.toStaff ? [] : [withLink(words.support, 'email', `mailto:${content.supportEmail}`, content.supportEmail)]),
    ...(content.unsubscribe ? [withLink(content.unsubscribe.text, 'link', content.unsubscribe.url, content.unsubscribe.url)] : []),
  ]
  const preheader = content.paragraphs.map((item) => (typeof item === 'string' ? item : item.text))[0] ?? ''
  return `<!DOCTYPE html>
<html lang="${toLanguageTag(content.locale)}" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="supported-color-schemes" content="light dark">
<meta name="x-apple-disable-message-reformatting">
<title>${escapeHtml(content.subject)}</title>
<style>${styles}
</style>
</head>
<body class="pm-page" style="margin:0;padding:0;background-color:${colours.page};">
<div style="display:none;max-height:0;overflow:hidden;opacity:0;mso-hide:all;">${escapeHtml(preheader)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" class="pm-page" style="background-color:${colours.page};">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;">
<tr><td class="pm-brand" style="padding:0 4px 16px;font-family:${font};font-size:26px;font-weight:bold;letter-spacing:0.5px;color:${brand};">Pactum</td></tr>
<tr><td class="pm-card pm-card-cell" style="padding:32px;background-color:${colours.card};border:1px solid ${colours.border};border-radius:8px;">
${paragraph(`<strong>${textHtml(content.greeting)}</strong>`)}
${content.paragraphs.map(paragraphHtml).join('\n')}
${content.facts && content.facts.length > 0 ? factsTable(content.facts) : ''}
${content.action ? button(content.action, words.buttonFallback) : ''}
${(content.afterword ?? []).map(paragraphHtml).join('\n')}
${content.toStaff ? '' : paragraph(textHtml(words.signature))}
</td></tr>
<tr><td style="padding:16px 4px 0;">
${footer.map((line, index) => `<p class="pm-muted" style="${smallStyle}">${index === 0 ? textHtml(line) : line}</p>`).join('\n')}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`
}
