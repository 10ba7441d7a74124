import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { AppError } from '../errors.ts'

/**
 * The sign-in pages' font: Roboto from @fontsource/roboto, the very files
 * and @font-face rules the web app bundles (apps/web/src/main.tsx loads the
 * same three weights), served from our origin so that the CSP's `font-src
 * 'self'` holds and no font CDN learns who signs in.
 */
const weights = [400, 500, 700] as const
const fontsourceCss = (weight: number) => createRequire(import.meta.url).resolve(`@fontsource/roboto/${weight}.css`)
const fontFilesDir = path.join(path.dirname(fontsourceCss(400)), 'files')

/** The stylesheet's font URLs are relative to it: `<assets>/fonts.css` → `<assets>/fonts/<file>`. */
const fontsStylesheet = weights
  .map((weight) => readFileSync(fontsourceCss(weight), 'utf8').replaceAll('url(./files/', 'url(fonts/'))
  .join('\n')
const fontFiles = new Set([...fontsStylesheet.matchAll(/url\(fonts\/([^)]+)\)/g)].map((match) => match[1]))

const fontTypes: Record<string, string> = { '.woff2': 'font/woff2', '.woff': 'font/woff' }

/** Where the pages find their assets: under the issuer's path, which the provider lets through to Fastify. */
export function pageAssetsPath(basePath: string): string {
  return `${basePath}/assets`
}

export async function pageAssetRoutes(app: FastifyInstance, deps: { basePath: string }): Promise<void> {
  const assets = pageAssetsPath(deps.basePath)
  // Browser assets, not API: kept out of the OpenAPI document.
  const hidden = { schema: { hide: true } }
  // Not fingerprinted, but they change only with the fontsource package: a day is plenty.
  const cacheControl = 'public, max-age=86400'

  app.get(`${assets}/fonts.css`, hidden, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('Cache-Control', cacheControl).send(fontsStylesheet),
  )
  app.get<{ Params: { file: string } }>(`${assets}/fonts/:file`, hidden, async (request, reply) => {
    const { file } = request.params
    // Only the files the stylesheet names: the parameter never reaches the file system otherwise.
    if (!fontFiles.has(file)) throw new AppError('not_found', 'No such font file')
    const type = fontTypes[path.extname(file)] ?? 'application/octet-stream'
    return reply.type(type).header('Cache-Control', cacheControl).send(await readFile(path.join(fontFilesDir, file)))
  })
}
