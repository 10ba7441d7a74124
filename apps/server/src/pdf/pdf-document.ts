import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { type CurrencyCode, formatMoney } from '@pactum/domain/currencies'
import { type Locale, toLanguageTag } from '@pactum/domain/locales'
import { create as parseFont, type Font, type GlyphRun } from 'fontkit'
import PDFDocument from 'pdfkit'

/**
 * What every PDF Pactum writes shares (the case file, decision 097; the
 * receipt, 098): an A4 document in the reader's language, its text helpers,
 * dates in UTC, money in the transaction's currency and "page n of m" at the
 * foot of every page.
 *
 * User texts come in any of our seven languages, so the PDF embeds DejaVu
 * Sans (from an npm package, subset to the glyphs used) rather than the
 * standard PDF fonts, whose WinAnsi encoding has no ł, ć, č or ž. The font is
 * resolved through the package, not read from /usr/share: a fresh machine
 * may have no system fonts.
 */

const require = createRequire(import.meta.url)
export type FontName = 'regular' | 'bold' | 'mono'
const fontFiles: Record<FontName, string> = {
  regular: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
  mono: 'dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf',
}
let fonts: Record<FontName, Font> | null = null
/**
 * Read and parsed once per process (about 1.4 MB together). Handed a file's
 * bytes, pdfkit would parse the font again for every document: with a
 * receipt attached to each release's e-mails, that parsing was half the
 * server's CPU while releases drained (issue 36). pdfkit takes a parsed
 * fontkit font as it is and still embeds only the glyphs a file uses.
 */
function loadFonts(): Record<FontName, Font> {
  const load = (name: FontName) => withSharedWork(withEveryCharactersGlyph(parseFont(readFileSync(require.resolve(fontFiles[name])))))
  fonts ??= { regular: load('regular'), bold: load('bold'), mono: load('mono') }
  return fonts
}

/**
 * fontkit remembers each glyph with the characters it was first asked for,
 * and pdfkit writes those into the PDF's text layer (what copy, search and
 * screen readers get). A glyph first reached through a substitution (the
 * `c` of a decomposed `ć`) is remembered with none, and every later
 * document using the shared font would lose that letter from its text
 * layer. So every glyph the character map reaches is made first, from the
 * lowest character that maps to it.
 */
function withEveryCharactersGlyph(font: Font): Font {
  for (const codePoint of [...font.characterSet].sort((a, b) => a - b)) font.glyphForCodePoint(codePoint)
  return font
}

/**
 * The work fontkit would redo for every document, done once per process
 * (issue 36: a receipt is made for every release, and its PDF was about 40 %
 * of the server's CPU while a backlog of releases' e-mails drained):
 *
 * - Laying a word out (the font's substitutions and kerning) gives the same
 *   glyphs and positions in every document. pdfkit caches layouts per
 *   document only, and scales the positions it is given in place; so each
 *   document gets its own copy of the positions, and shares the glyphs.
 * - Subsetting reads each glyph's outline to find its components; the
 *   outline never changes (these fonts have no variations).
 *
 * The words kept are bounded: most are the receipt's own labels, and the
 * rest (ids, addresses, amounts) are let go when the table is full.
 */
function withSharedWork(font: Font): Font {
  const layouts = new Map<string, GlyphRun>()
  const decoded = new WeakSet<object>()
  const shared: Font = Object.create(font)
  shared.layout = (text, features) => {
    if (features !== undefined) return font.layout.call(shared, text, features)
    let run = layouts.get(text)
    if (run === undefined) {
      if (layouts.size >= sharedLayoutsPerFont) layouts.clear()
      run = font.layout.call(shared, text)
      layouts.set(text, run)
    }
    return ownPositions(run)
  }
  shared.getGlyph = (id, characters) => {
    const glyph = font.getGlyph.call(shared, id, characters)
    if (!decoded.has(glyph)) {
      decoded.add(glyph)
      const decode = glyph._decode.bind(glyph)
      let outline: unknown
      let done = false
      glyph._decode = () => {
        if (!done) {
          outline = decode()
          done = true
        }
        return outline
      }
    }
    return glyph
  }
  return shared
}

const sharedLayoutsPerFont = 20_000

/** The run with positions of its own: pdfkit scales a run's positions in place when it lays a word out. */
function ownPositions(run: GlyphRun): GlyphRun {
  const copy: GlyphRun = Object.create(Object.getPrototypeOf(run) as object)
  Object.assign(copy, run, { positions: run.positions.map((position) => ({ ...position })) })
  return copy
}

const margin = 50
export const grey = '#555555'

export interface PdfWriter {
  doc: PDFKit.PDFDocument
  text: (value: string, options?: { font?: FontName; size?: number; color?: string }) => void
  /** "Name: value" on one line, the name in bold. */
  fact: (name: string, value: string, font?: FontName) => void
  heading: (value: string) => void
  gap: () => void
  /** A date and time in the reader's language, in UTC; '—' for none. */
  when: (date: Date | string | null) => string
  money: (amount: number) => string
  /** Numbers every page with `footer`, then ends the document; resolves to its bytes. */
  finish: (footer: (page: number, pages: number) => string) => Promise<Buffer>
}

export function openPdf(options: { locale: Locale; currency: CurrencyCode; title: string; createdAt: Date }): PdfWriter {
  const tag = toLanguageTag(options.locale)
  const dateFormat = new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })
  const doc = new PDFDocument({
    size: 'A4',
    margin,
    bufferPages: true,
    lang: tag,
    info: { Title: options.title, Author: 'Pactum', CreationDate: options.createdAt },
    // No Helvetica: pdfkit would parse its metrics for every document, and no text of ours uses it.
    font: null as unknown as string,
  })
  const chunks: Buffer[] = []
  doc.on('data', (chunk: Buffer) => chunks.push(chunk))
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  const loaded = loadFonts()
  // @types/pdfkit lists only bytes and paths as a font's source; pdfkit itself takes any object with `layout`.
  for (const name of Object.keys(loaded) as FontName[]) doc.registerFont(name, loaded[name] as unknown as Buffer)
  doc.font('regular')

  const text: PdfWriter['text'] = (value, style = {}) => {
    doc
      .font(style.font ?? 'regular')
      .fontSize(style.size ?? 10)
      .fillColor(style.color ?? 'black')
      .text(value)
  }
  return {
    doc,
    text,
    fact: (name, value, font = 'regular') => {
      doc.font('bold').fontSize(10).fillColor('black').text(`${name}: `, { continued: true }).font(font).text(value)
    },
    heading: (value) => {
      doc.moveDown(0.8)
      text(value, { font: 'bold', size: 13 })
      doc.moveDown(0.3)
    },
    gap: () => doc.moveDown(0.5),
    when: (date) => (date === null ? '—' : dateFormat.format(new Date(date))),
    money: (amount) => formatMoney(amount, options.currency, tag),
    finish: (footer) => {
      numberPages(doc, footer)
      doc.end()
      return finished
    },
  }
}

/** "Page n of m" at the foot of every page, written once all pages exist (bufferPages). */
function numberPages(doc: PDFKit.PDFDocument, footer: (page: number, pages: number) => string) {
  const { start, count } = doc.bufferedPageRange()
  for (let index = start; index < start + count; index += 1) {
    doc.switchToPage(index)
    // Below the bottom margin: without lifting it, pdfkit would start a new page for the footer.
    const bottom = doc.page.margins.bottom
    doc.page.margins.bottom = 0
    doc
      .font('regular')
      .fontSize(8)
      .fillColor(grey)
      .text(footer(index - start + 1, count), margin, doc.page.height - margin / 2 - 8, {
        width: doc.page.width - 2 * margin,
        align: 'center',
        lineBreak: false,
      })
    doc.page.margins.bottom = bottom
  }
}
