/**
 * The part of fontkit (pdfkit's own font parser, which ships no types) that
 * pdf-document.ts uses: a font parsed once and handed to every document.
 */
declare module 'fontkit' {
  export interface Font {
    layout: (text: string) => unknown
    /** Every Unicode code point the font's character map covers. */
    characterSet: number[]
    glyphForCodePoint: (codePoint: number) => unknown
  }
  export function create(buffer: Uint8Array, postscriptName?: string): Font
}
