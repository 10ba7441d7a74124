import { createHash } from 'node:crypto'
import { type AttachmentContentType, attachmentContentTypes, maxAttachmentBytes } from '@pactum/contracts/messages'
import jpeg from 'jpeg-js'
import { PNG } from 'pngjs'
import { contentTypeByContent } from '../../adapters/document-store/content-type.ts'
import type { AppError } from '../../errors.ts'
import { fieldError } from '../../errors.ts'
import { jpegOrientation, orientPixels } from './jpeg-orientation.ts'

/**
 * An attachment of the conversation made ready to store (issue 32 item 1):
 * its type read from its content, images decoded and encoded anew so that
 * nothing but the pixels is kept (EXIF with its GPS position, XMP, text
 * chunks, thumbnails), PDFs as received (no pure-JS library rewrites them
 * faithfully; docs/decisions/096-transaction-conversation.md), and the
 * SHA-256 of the bytes as stored, which is what the history records.
 */
export interface PreparedAttachment {
  bytes: Buffer
  contentType: AttachmentContentType
  name: string
  sha256: string
}

/** Pixels an image may have: a 10 MB file can unpack into gigabytes (a decompression bomb). */
const maxMegapixels = 40

const field = 'body.file'

export async function prepareAttachment(bytes: Buffer, fileName: string): Promise<PreparedAttachment> {
  if (bytes.byteLength === 0) throw fieldError(field, 'The file is empty')
  if (bytes.byteLength > maxAttachmentBytes)
    throw fieldError(field, `The file is larger than ${maxAttachmentBytes} bytes`, 'file_too_large')
  const contentType = await contentTypeByContent(bytes, attachmentContentTypes)
  if (!contentType) throw fieldError(field, 'The file must be a JPEG, PNG or PDF (checked by its content, not its name)')
  const stored = contentType === 'image/jpeg' ? reencodeJpeg(bytes) : contentType === 'image/png' ? reencodePng(bytes) : bytes
  return { bytes: stored, contentType, name: cleanFileName(fileName), sha256: createHash('sha256').update(stored).digest('hex') }
}

function unreadable(): AppError {
  return fieldError(field, `The image could not be read (a complete image of at most ${maxMegapixels} megapixels)`)
}

function reencodeJpeg(bytes: Buffer): Buffer {
  let image: { width: number; height: number; data: Uint8Array }
  try {
    image = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: maxMegapixels, maxMemoryUsageInMB: 1024 })
  } catch {
    throw unreadable()
  }
  // EXIF goes, so the turn it records is applied to the pixels (a phone photo stays upright).
  const upright = orientPixels(image, jpegOrientation(bytes))
  // Quality 90: the pictures are evidence, kept close to what was sent. No comments, no EXIF: only JFIF's header.
  return jpeg.encode({ width: upright.width, height: upright.height, data: upright.data }, 90).data
}

function reencodePng(bytes: Buffer): Buffer {
  // The size is in the header (IHDR, always first): checked before anything is inflated.
  if (bytes.byteLength < 24 || (bytes.readUInt32BE(16) * bytes.readUInt32BE(20)) / 1_000_000 > maxMegapixels) throw unreadable()
  let image: PNG
  try {
    image = PNG.sync.read(bytes)
  } catch {
    throw unreadable()
  }
  // A new image with the pixels only: no tEXt/iTXt/zTXt, eXIf, time or colour-profile chunks come along.
  const clean = new PNG({ width: image.width, height: image.height })
  image.data.copy(clean.data)
  return PNG.sync.write(clean)
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
const unsafeInName = /[\u0000-\u001f\u007f"<>]/g

/**
 * The name as shown beside the attachment: its last path segment, without
 * control or quoting characters, at most 200 characters. Only ever shown as
 * text and in Content-Disposition; the stored key never comes from it.
 */
export function cleanFileName(fileName: string): string {
  const last = fileName.split(/[/\\]/).pop() ?? ''
  const cleaned = last.replace(unsafeInName, '').trim().slice(0, 200)
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'attachment' : cleaned
}

/** Content-Disposition for a download: an ASCII name for old clients and the exact one (RFC 6266 / 5987). */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/[\\"]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`
}
