import type { MailContent, MailParagraph } from './mail-content.ts'

function paragraphText(paragraph: MailParagraph): string {
  return typeof paragraph === 'string' ? paragraph : `${paragraph.text}\n${paragraph.url}`
}

/**
 * The plain-text alternative: blocks separated by a blank line, the action
 * as `label: address` so that every mail client can follow it, the
 * footer's sentences with their addresses written out.
 */
export function renderMailText(content: MailContent): string {
  const { words } = content
  const blocks = [
    content.greeting,
    ...content.paragraphs.map(paragraphText),
    ...(content.facts && content.facts.length > 0 ? [content.facts.map(({ label, value }) => `${label}: ${value}`).join('\n')] : []),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`] : []),
    ...(content.afterword ?? []).map(paragraphText),
    ...(content.toStaff ? [] : [words.signature]),
    content.reason,
    ...(content.toStaff ? [] : [words.support.replace('{email}', () => content.supportEmail)]),
    ...(content.unsubscribe ? [content.unsubscribe.text.replace('{link}', () => content.unsubscribe!.url)] : []),
  ]
  return blocks.join('\n\n')
}
