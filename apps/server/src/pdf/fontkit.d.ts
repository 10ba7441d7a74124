/**
 * The part of fontkit (pdfkit's own font parser, which ships no types) that
 * pdf-document.ts uses: a font parsed once and handed to every document.
 */
declare module 'fontkit' {
  export interface GlyphRun {
    glyphs: Glyph[]
    positions: Array<Record<string, number>>
  }
  export interface Glyph {
    /** The glyph's outline as stored (points, or components for a composite glyph). */
    _decode: () => unknown
  }
  export interface Font {
    layout: (text: string, features?: unknown) => GlyphRun
    getGlyph: (id: number, characters?: number[]) => Glyph
    /** Every Unicode code point the font's character map covers. */
    characterSet: number[]
    glyphForCodePoint: (codePoint: number) => Glyph
  }
  export function create(buffer: Uint8Array, postscriptName?: string): Font
}
