import fc from 'fast-check'
import { tinyPng } from '../identity-upload.ts'

/*
 * Bodies a hostile or careless client sends, for the API fuzz: broken JSON,
 * the wrong content type, and multipart uploads wrong in every way.
 */

export const jsonHeaders = { 'content-type': 'application/json' }

export const malformedJson: Array<{ payload: string; headers: Record<string, string> }> = [
  '{',
  '{"a":',
  '{"price": 12,}',
  "{'single': 'quotes'}",
  'nul',
  '',
  ' ',
  'null',
  '[]',
  '"text"',
  '12',
  'true',
  '{"price": 1e999}',
  '{"price": -0}',
  '{"price": 123456789012345678901234567890}',
  '{"description": "\\ud800"}',
  '{"__proto__": {"admin": true}}',
  '{"constructor": {"prototype": {"admin": true}}}',
  '{"a": 1, "a": 2}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  '\uFEFF{}',
  '{"description": "\u0000"}',
].map((payload) => ({ payload, headers: jsonHeaders }))

export const wrongContentTypes: Array<{ payload: string; headers: Record<string, string> }> = [
  { payload: '{"price": 100}', headers: { 'content-type': 'text/plain' } },
  { payload: '<price>100</price>', headers: { 'content-type': 'application/xml' } },
  { payload: 'price=100&currency=eur&description=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
  { payload: 'price[a]=1&price=2&__proto__[x]=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
  { payload: '{"price": 100}', headers: { 'content-type': 'application/json; charset=latin1' } },
  { payload: '{"price": 100}', headers: { 'content-type': 'multipart/form-data' } },
  { payload: '{"price": 100}', headers: { 'content-type': '' } },
  { payload: '{"price": 100}', headers: { 'content-type': 'application/json, text/plain' } },
]

/**
 * A multipart/form-data body, written by hand so that it can be made wrong
 * in every way a client or an attacker might: parts missing, repeated,
 * mislabelled, cut short, over the limits.
 */
export function multipart(
  parts: Array<{ name: string; fileName?: string; type?: string; content: string | Buffer }>,
  options: { boundary?: string; cut?: number; headerBoundary?: string | null } = {},
) {
  const boundary = options.boundary ?? 'fuzzboundary'
  const chunks: Buffer[] = []
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.fileName === undefined ? '' : `; filename="${part.fileName}"`}`
    const type = part.type === undefined ? '' : `\r\nContent-Type: ${part.type}`
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`),
      Buffer.from(part.content),
      Buffer.from('\r\n'),
    )
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  const whole = Buffer.concat(chunks)
  const headerBoundary = options.headerBoundary === undefined ? boundary : options.headerBoundary
  return {
    payload: options.cut === undefined ? whole : whole.subarray(0, Math.floor(whole.length * options.cut)),
    headers: { 'content-type': headerBoundary === null ? 'multipart/form-data' : `multipart/form-data; boundary=${headerBoundary}` },
  }
}

export const png = { name: 'file', fileName: 'passport.png', type: 'image/png', content: tinyPng }

export const multipartBody = fc
  .record({
    side: fc.option(fc.oneof(fc.constantFrom('front', 'back'), fc.constantFrom('', 'FRONT', 'side\u0000', 'x'.repeat(200), '😀'))),
    file: fc.oneof(
      fc.constant(png),
      fc.constantFrom(
        { ...png, content: Buffer.alloc(0) },
        { ...png, content: 'not an image at all', type: 'text/plain', fileName: 'notes.txt' },
        { ...png, content: '%PDF-1.4 cut short' },
        { ...png, fileName: '../../etc/passwd' },
        { ...png, fileName: 'nul\u0000.png' },
        { ...png, fileName: '' },
        { ...png, name: 'document' },
        { ...png, content: tinyPng.subarray(0, 20) },
      ),
    ),
    extra: fc.constantFrom(
      [],
      [{ name: 'file', fileName: 'second.png', type: 'image/png', content: tinyPng }],
      [
        { name: 'side', content: 'back' },
        { name: 'side', content: 'front' },
      ],
      [
        { name: 'x', content: 'y' },
        { name: 'z', content: 'w' },
        { name: 'v', content: 'u' },
        { name: 'w', content: 'v' },
      ],
    ),
    shape: fc.constantFrom<Parameters<typeof multipart>[1]>(
      {},
      {},
      {},
      { cut: 0.5 },
      { cut: 0.95 },
      { headerBoundary: 'another' },
      { headerBoundary: null },
      { boundary: '' },
    ),
  })
  .map(({ side, file, extra, shape }) => multipart([...(side === null ? [] : [{ name: 'side', content: side }]), file, ...extra], shape))
