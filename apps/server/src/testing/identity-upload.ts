import type { TestApp } from './test-app.ts'

/** The smallest valid PNG (1×1, transparent): enough for content sniffing and for the sandbox's check. */
export const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
)

export interface FilePart {
  bytes: Uint8Array
  fileName: string
  type?: string
}

/** Fields in order (a name may repeat, as in a browser's form). */
export type FormParts = Array<[name: string, value: string | FilePart]>

/** A multipart/form-data body as the browser would send it, for app.inject. */
export async function multipartBody(parts: FormParts): Promise<{ payload: Buffer; contentType: string }> {
  const form = new FormData()
  for (const [name, value] of parts) {
    if (typeof value === 'string') form.append(name, value)
    else form.append(name, new Blob([new Uint8Array(value.bytes)], { type: value.type ?? 'application/octet-stream' }), value.fileName)
  }
  const request = new Request('http://localhost/', { method: 'POST', body: form })
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type') ?? '' }
}

/** Uploads one side of an identity document as `token`'s user; answers the status code and body. */
export async function uploadDocument(
  app: TestApp['app'],
  token: string,
  options: { document?: string; side?: 'front' | 'back'; bytes?: Uint8Array; fileName?: string; type?: string } = {},
) {
  const { payload, contentType } = await multipartBody([
    ['side', options.side ?? 'front'],
    ['file', { bytes: options.bytes ?? tinyPng, fileName: options.fileName ?? 'passport.png', type: options.type ?? 'image/png' }],
  ])
  const response = await app.inject({
    method: 'POST',
    url: `/api/v1/me/personal/${options.document ?? 'identity_document'}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    payload,
  })
  return { status: response.statusCode, body: response.json() }
}
