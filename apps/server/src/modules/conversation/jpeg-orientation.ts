/**
 * A photo's EXIF orientation (tag 0x0112), and the pixels turned the way it
 * says. Phones store a picture as the sensor saw it and record in EXIF how
 * to turn it; re-encoding drops EXIF (message-attachments.ts), so the turn
 * is applied to the pixels first, or a photo taken upright would show on
 * its side. Reading one tag of IFD0 is a few lines; no library is taken
 * for it (the candidates are unmaintained or bring a whole image stack).
 */

/** 1 to 8 as in EXIF 2.3 §4.6.4 (TIFF 6.0 "Orientation"); 1, upright, when absent or unreadable. */
export type Orientation = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8

const orientationTag = 0x0112
const shortType = 3

/** The orientation from the first APP1 "Exif" segment before the scan; 1 when there is none. */
export function jpegOrientation(bytes: Uint8Array): Orientation {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (view.length < 4 || view[0] !== 0xff || view[1] !== 0xd8) return 1
  let offset = 2
  while (offset + 4 <= view.length && view[offset] === 0xff) {
    const marker = view[offset + 1]
    // Start of scan or end of image: the metadata segments are all before.
    if (marker === 0xda || marker === 0xd9) return 1
    const length = view.readUInt16BE(offset + 2)
    const end = offset + 2 + length
    if (length < 2 || end > view.length) return 1
    if (marker === 0xe1 && view.toString('latin1', offset + 4, offset + 10) === 'Exif\0\0') {
      return tiffOrientation(view.subarray(offset + 10, end))
    }
    offset = end
  }
  return 1
}

function tiffOrientation(tiff: Buffer): Orientation {
  if (tiff.length < 8) return 1
  const order = tiff.toString('latin1', 0, 2)
  if (order !== 'II' && order !== 'MM') return 1
  const u16 = (at: number) => (order === 'II' ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at))
  const u32 = (at: number) => (order === 'II' ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at))
  if (u16(2) !== 42) return 1
  const ifd = u32(4)
  if (ifd + 2 > tiff.length) return 1
  const count = u16(ifd)
  for (let index = 0; index < count; index++) {
    const entry = ifd + 2 + index * 12
    if (entry + 12 > tiff.length) return 1
    if (u16(entry) !== orientationTag) continue
    const value = u16(entry + 8)
    return u16(entry + 2) === shortType && value >= 1 && value <= 8 ? (value as Orientation) : 1
  }
  return 1
}

export interface Pixels {
  readonly width: number
  readonly height: number
  /** RGBA, row by row. */
  readonly data: Uint8Array
}

/** The pixels as they are meant to be seen: mirrored and/or turned as the orientation says. */
export function orientPixels(image: Pixels, orientation: Orientation): Pixels {
  if (orientation === 1) return image
  const { width: w, height: h, data } = image
  const swaps = orientation >= 5
  const width = swaps ? h : w
  const height = swaps ? w : h
  const out = new Uint8Array(data.length)
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const [toX, toY] = destination(orientation, x, y, w, h)
      const from = (y * w + x) * 4
      out.set(data.subarray(from, from + 4), (toY * width + toX) * 4)
    }
  }
  return { width, height, data: out }
}

/** Where the stored pixel (x, y) of a w×h image goes once shown upright. */
function destination(orientation: Exclude<Orientation, 1>, x: number, y: number, w: number, h: number): [number, number] {
  switch (orientation) {
    case 2: // mirrored left to right
      return [w - 1 - x, y]
    case 3: // upside down
      return [w - 1 - x, h - 1 - y]
    case 4: // mirrored top to bottom
      return [x, h - 1 - y]
    case 5: // transposed
      return [y, x]
    case 6: // turned a quarter anticlockwise: shown a quarter clockwise
      return [h - 1 - y, x]
    case 7: // transversed
      return [h - 1 - y, w - 1 - x]
    case 8: // turned a quarter clockwise: shown a quarter anticlockwise
      return [y, w - 1 - x]
  }
}
