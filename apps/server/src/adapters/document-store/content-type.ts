import { fileTypeFromBuffer } from 'file-type'

/**
 * A file's real type from its first bytes (magic numbers), when it is one
 * of `allowed`; undefined otherwise. The file's name and the browser's
 * Content-Type header are never trusted. Shared by the identity documents
 * and the conversation's attachments, which accept the same kinds of file.
 */
export async function contentTypeByContent<Type extends string>(bytes: Uint8Array, allowed: readonly Type[]): Promise<Type | undefined> {
  const detected = await fileTypeFromBuffer(bytes)
  return detected && (allowed as readonly string[]).includes(detected.mime) ? (detected.mime as Type) : undefined
}
