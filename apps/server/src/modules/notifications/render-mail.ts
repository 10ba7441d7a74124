import type { MailContent, RenderedMail } from './mail-content.ts'
import { renderMailHtml } from './mail-html.ts'
import { renderMailText } from './mail-text.ts'

/** One content, written twice: the text and the HTML alternative say the same, with the same link. */
export function renderMail(content: MailContent): RenderedMail {
  return { subject: content.subject, text: renderMailText(content), html: renderMailHtml(content) }
}
