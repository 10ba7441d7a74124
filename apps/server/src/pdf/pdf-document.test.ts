import { extractText } from 'unpdf'
import { describe, expect, it } from 'vitest'
import { openPdf } from './pdf-document.ts'

async function textOf(pdf: Buffer): Promise<string> {
  const { text } = await extractText(new Uint8Array(pdf), { mergePages: true })
  return text.replace(/\s+/g, ' ')
}

async function render(lines: string[]): Promise<Buffer> {
  const writer = openPdf({ locale: 'pl_pl', currency: 'pln', title: 'test', createdAt: new Date('2026-12-06T10:00:00Z') })
  writer.heading(lines[0]!)
  for (const line of lines.slice(1)) writer.fact('Pole', line, 'mono')
  return writer.finish((page, pages) => `${page} / ${pages}`)
}

describe('PDFs sharing the fonts parsed once per process', () => {
  it('each embeds the glyphs of its own text, also when written side by side', async () => {
    const [polish, croatian] = await Promise.all([render(['Zażółć gęślą jaźń', 'łódź ćma']), render(['Čačkalica đak', 'žuto šešir'])])
    expect(await textOf(polish)).toContain('Zażółć gęślą jaźń')
    expect(await textOf(polish)).toContain('łódź ćma')
    const croatianText = await textOf(croatian)
    expect(croatianText).toContain('Čačkalica đak')
    expect(croatianText).toContain('žuto šešir')
    expect(croatianText).not.toContain('Zażółć')
    // A third document after both still gets every glyph it needs.
    expect(await textOf(await render(['ĆĐŠŽ ąę']))).toContain('ĆĐŠŽ ąę')
  })

  it('lays a document out the same when its words were laid out before, in this document or another', async () => {
    // The shared layouts (withSharedWork): pdfkit scales a laid-out word's positions in place, so a
    // shared word handed out twice without a copy of its own would come out scaled twice, and wider.
    const lines = ['Zażółć gęślą jaźń', 'łódź ćma łódź ćma', 'Čačkalica đak']
    const first = await render(lines)
    const again = await render(lines)
    expect(again.equals(first)).toBe(true)
    const { doc } = openPdf({ locale: 'en_gb', currency: 'eur', title: 'widths', createdAt: new Date('2026-12-06T10:00:00Z') })
    doc.font('regular').fontSize(10)
    const width = doc.widthOfString('łódź ćma')
    expect(doc.widthOfString('łódź ćma')).toBe(width)
    expect(width).toBeGreaterThan(35)
    expect(width).toBeLessThan(60)
  })
})
