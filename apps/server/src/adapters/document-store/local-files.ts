import { randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { chmod, mkdir, open, rename, rm } from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { assertDocumentKey, type DocumentStore, DocumentStoreError, isSizedStream, type SizedStream } from './port.ts'

/**
 * The default document store: one file per key under `dir` (DATA_DIR/…),
 * the directories 0700 and the files 0600, readable by the server's user
 * only. A document is written to a temporary name and renamed into place,
 * so a reader never sees half a file. Nothing here is ever served.
 */
export function createLocalDocumentStore(dir: string): DocumentStore {
  const root = path.resolve(dir)
  const fileFor = (key: string): string => {
    assertDocumentKey(key)
    const file = path.join(root, ...key.split('/'))
    // Defence in depth: the key pattern already rules out leaving the root.
    if (!file.startsWith(root + path.sep)) throw new DocumentStoreError('invalid_key', 'The document key leaves the store')
    return file
  }

  return {
    kind: 'local',

    async put(key: string, body: Uint8Array | SizedStream): Promise<void> {
      const file = fileFor(key)
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 })
      // Temporary names carry a '.', which no key can, so they never collide with a document.
      const temporary = `${file}.${randomBytes(6).toString('hex')}.partial`
      try {
        const source = isSizedStream(body) ? body.stream : Readable.from([body])
        await pipeline(source, createWriteStream(temporary, { mode: 0o600, flags: 'wx' }))
        // The mode given at creation is masked by the umask; this one is not.
        await chmod(temporary, 0o600)
        await rename(temporary, file)
      } catch (error) {
        await rm(temporary, { force: true })
        throw error
      }
    },

    async get(key: string): Promise<Readable> {
      const file = fileFor(key)
      try {
        const handle = await open(file, 'r')
        return handle.createReadStream({ autoClose: true })
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new DocumentStoreError('not_found', `No document under ${key}`)
        throw error
      }
    },

    async delete(key: string): Promise<void> {
      await rm(fileFor(key), { force: true })
    },
  }
}
