import jpeg from 'jpeg-js'
import { describe, expect, it } from 'vitest'
import { type Orientation, jpegOrientation, orientPixels } from './jpeg-orientation.ts'
import { prepareAttachment } from './message-attachments.ts'

/** An APP1 Exif segment whose IFD0 holds only the orientation, in either byte order. */
function exifSegment(orientation: number, order: 'II' | 'MM'): Buffer {
  const tiff = Buffer.alloc(8 + 2 + 12 + 4)
  const le = order === 'II'
  const u16 = (value: number, at: number) => (le ? tiff.writeUInt16LE(value, at) : tiff.writeUInt16BE(value, at))
  const u32 = (value: number, at: number) => (le ? tiff.writeUInt32LE(value, at) : tiff.writeUInt32BE(value, at))
  tiff.write(order, 0, 'latin1')
  u16(42, 2)
  u32(8, 4)
  u16(1, 8)
  u16(0x0112, 10)
  u16(3, 12)
  u32(1, 14)
  u16(orientation, 18)
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff])
  const header = Buffer.from([0xff, 0xe1, 0, 0])
  header.writeUInt16BE(body.length + 2, 2)
  return Buffer.concat([header, body])
}

/** A w×h JPEG, black but for a white pixel at the top left, with an orientation. */
function photo(width: number, height: number, orientation: number, order: 'II' | 'MM' = 'MM'): Buffer {
  const data = Buffer.alloc(width * height * 4, 0)
  for (let i = 3; i < data.length; i += 4) data[i] = 255
  data.fill(255, 0, 4)
  const plain = jpeg.encode({ width, height, data }, 100).data
  return Buffer.concat([plain.subarray(0, 2), exifSegment(orientation, order), plain.subarray(2)])
}

/** Where the brightest pixel is (JPEG blurs a little; the white one stays the brightest). */
function brightest(image: { width: number; data: Uint8Array }): [number, number] {
  let best = -1
  let at = 0
  for (let i = 0; i < image.data.length; i += 4) {
    const value = image.data[i] ?? 0
    if (value > best) [best, at] = [value, i / 4]
  }
  return [at % image.width, Math.floor(at / image.width)]
}

describe('a photo’s EXIF orientation', () => {
  it('is read in both byte orders, and is 1 when absent or out of range', () => {
    expect(jpegOrientation(photo(4, 2, 6, 'MM'))).toBe(6)
    expect(jpegOrientation(photo(4, 2, 8, 'II'))).toBe(8)
    expect(jpegOrientation(jpeg.encode({ width: 2, height: 2, data: Buffer.alloc(16) }, 90).data)).toBe(1)
    expect(jpegOrientation(photo(4, 2, 9))).toBe(1)
    expect(jpegOrientation(Buffer.from('not a jpeg'))).toBe(1)
  })

  it('survives a truncated segment without reading past the end', () => {
    const cut = photo(4, 2, 6).subarray(0, 20)
    expect(jpegOrientation(cut)).toBe(1)
  })

  // A 3×2 image, pixels numbered 0..5 row by row, and where each orientation shows them.
  it.each([
    [2, 3, 2, [2, 1, 0, 5, 4, 3]],
    [3, 3, 2, [5, 4, 3, 2, 1, 0]],
    [4, 3, 2, [3, 4, 5, 0, 1, 2]],
    [5, 2, 3, [0, 3, 1, 4, 2, 5]],
    [6, 2, 3, [3, 0, 4, 1, 5, 2]],
    [7, 2, 3, [5, 2, 4, 1, 3, 0]],
    [8, 2, 3, [2, 5, 1, 4, 0, 3]],
  ] as const)('orientation %i shows the pixels %ix%i as %j', (orientation, width, height, order) => {
    const data = new Uint8Array(6 * 4)
    for (let pixel = 0; pixel < 6; pixel++) data[pixel * 4] = pixel
    const shown = orientPixels({ width: 3, height: 2, data }, orientation as Orientation)
    expect([shown.width, shown.height]).toEqual([width, height])
    expect(Array.from({ length: 6 }, (_, pixel) => shown.data[pixel * 4])).toEqual(order)
  })

  it('is applied before the metadata is dropped: a sideways phone photo is stored upright', async () => {
    // Stored 8 wide and 4 high with the white pixel top left; orientation 6 shows it turned a quarter clockwise.
    const prepared = await prepareAttachment(photo(8, 4, 6), 'IMG_0002.jpg')
    const stored = jpeg.decode(prepared.bytes, { useTArray: true })
    expect([stored.width, stored.height]).toEqual([4, 8])
    expect(brightest(stored)).toEqual([3, 0])
    expect(prepared.bytes.includes(Buffer.from('Exif'))).toBe(false)
  })
})
