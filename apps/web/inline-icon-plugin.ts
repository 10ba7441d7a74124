/// <reference types="node" />
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Plugin } from 'vite'

/**
 * Puts the SVG icon into index.html as a data: URL. As a file it was one more
 * request on every first visit, made while the app's script downloads and
 * taking a share of a slow connection from it (issue 13, LCP). The file
 * stays in public/ for anything else that links to it.
 */
export function inlineIcon({ href, publicDir }: { href: string; publicDir: string }): Plugin {
  const attribute = `href="${href}"`
  return {
    name: 'pactum:inline-icon',
    transformIndexHtml(html) {
      if (!html.includes(attribute)) throw new Error(`inline-icon: index.html has no ${attribute}`)
      const svg = readFileSync(path.join(publicDir, href), 'utf8').trim()
      return html.replace(attribute, `href="data:image/svg+xml,${encodeURIComponent(svg)}"`)
    },
  }
}
