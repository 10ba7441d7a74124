// The recording function runs in the browser page.
/// <reference lib="dom" />
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'

/**
 * Makes the guided tour's video step (spec §2) from nothing but this script:
 * a wordless animation drawn on a canvas in Debian's Chromium and recorded
 * there with MediaRecorder (WebM, VP8, no sound), plus WebVTT captions in
 * the 7 languages from scripts/tour-video-captions.json. No ffmpeg, no
 * download. Writes apps/web/public/tour/; commit what it writes.
 *
 *   node scripts/make-tour-video.ts
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const outDir = path.join(root, 'apps/web/public/tour')
const captions = JSON.parse(readFileSync(path.join(root, 'scripts/tour-video-captions.json'), 'utf8')) as Record<string, string[]>
const sceneSeconds = 3
const scenes = 4

/** Runs in the page: draws the four scenes (create, join and pay, ship or hand over, release) and records them. */
async function recordInPage(options: { sceneSeconds: number; scenes: number }): Promise<string> {
  const canvas = document.createElement('canvas')
  canvas.width = 640
  canvas.height = 360
  document.body.append(canvas)
  const context = canvas.getContext('2d')!
  const colours = { ink: '#1b1f2e', primary: '#2949ce', soft: '#e6ebfb', pink: '#f8bbd0', green: '#2e7d32', paper: '#ffffff' }

  const roundRect = (x: number, y: number, w: number, h: number, r: number, fill: string) => {
    context.fillStyle = fill
    context.beginPath()
    context.roundRect(x, y, w, h, r)
    context.fill()
  }
  const person = (x: number, y: number, fill: string) => {
    context.fillStyle = fill
    context.beginPath()
    context.arc(x, y - 38, 18, 0, Math.PI * 2)
    context.fill()
    roundRect(x - 26, y - 14, 52, 56, 20, fill)
  }
  const safe = (x: number, y: number, glow: number) => {
    roundRect(x - 50, y - 45, 100, 90, 12, colours.ink)
    context.strokeStyle = `rgba(252, 228, 236, ${0.4 + glow * 0.6})`
    context.lineWidth = 6
    context.beginPath()
    context.arc(x, y, 22, 0, Math.PI * 2)
    context.stroke()
  }
  const coin = (x: number, y: number) => {
    context.fillStyle = '#f9a825'
    context.beginPath()
    context.arc(x, y, 16, 0, Math.PI * 2)
    context.fill()
    context.fillStyle = '#fff8e1'
    context.fillRect(x - 2, y - 9, 4, 18)
  }
  const parcel = (x: number, y: number) => {
    roundRect(x - 28, y - 22, 56, 44, 4, '#a1887f')
    context.fillStyle = '#d7ccc8'
    context.fillRect(x - 4, y - 22, 8, 44)
  }
  const tick = (x: number, y: number, progress: number) => {
    context.strokeStyle = colours.green
    context.lineWidth = 10
    context.lineCap = 'round'
    context.beginPath()
    context.moveTo(x - 22, y)
    context.lineTo(x - 6, y + 16 * Math.min(1, progress * 2))
    if (progress > 0.5) context.lineTo(x - 6 + 34 * (progress - 0.5) * 2, y + 16 - 34 * (progress - 0.5) * 2)
    context.stroke()
  }
  const stepDots = (scene: number) => {
    for (let index = 0; index < options.scenes; index++) {
      context.fillStyle = index === scene ? colours.primary : colours.soft
      context.beginPath()
      context.arc(320 - 36 + index * 24, 330, 7, 0, Math.PI * 2)
      context.fill()
    }
  }

  const draw = (seconds: number) => {
    const scene = Math.min(options.scenes - 1, Math.floor(seconds / options.sceneSeconds))
    const t = (seconds - scene * options.sceneSeconds) / options.sceneSeconds
    const ease = 1 - (1 - Math.min(1, t * 1.6)) ** 3
    context.fillStyle = colours.paper
    context.fillRect(0, 0, 640, 360)
    roundRect(24, 24, 592, 280, 24, colours.soft)
    context.fillStyle = colours.primary
    context.font = 'bold 40px sans-serif'
    context.fillText(String(scene + 1), 52, 78)
    person(150, 190, colours.primary)
    person(490, 190, '#ad1457')
    safe(320, 180, scene === 1 ? ease : scene > 1 ? 1 : 0)
    if (scene === 0) {
      // The seller makes an offer: a card with a code travels towards the buyer.
      roundRect(150 + ease * 240, 90, 90, 56, 8, colours.paper)
      context.fillStyle = colours.ink
      context.font = 'bold 18px monospace'
      context.fillText('AB12CD', 160 + ease * 240, 125)
    } else if (scene === 1) {
      // The buyer pays: the coin goes into the safe, not to the seller.
      coin(490 - ease * 170, 120 + ease * 60)
    } else if (scene === 2) {
      // The item goes from seller to buyer while the money waits.
      coin(320, 180)
      parcel(150 + ease * 340, 260)
    } else {
      // The buyer confirms; the money leaves the safe for the seller.
      parcel(490, 260)
      tick(490, 100, t)
      coin(320 - (Math.max(0, t - 0.4) / 0.6) * 170, 180)
    }
    stepDots(scene)
  }

  draw(0)
  const stream = canvas.captureStream(20)
  const recorder = new MediaRecorder(stream, { mimeType: 'video/webm;codecs=vp8', videoBitsPerSecond: 300_000 })
  const chunks: Blob[] = []
  recorder.ondataavailable = (event) => chunks.push(event.data)
  const stopped = new Promise((resolve) => (recorder.onstop = resolve))
  recorder.start(500)
  const total = options.sceneSeconds * options.scenes
  const started = performance.now()
  await new Promise<void>((resolve) => {
    const frame = () => {
      const seconds = (performance.now() - started) / 1000
      draw(Math.min(seconds, total - 0.001))
      if (seconds >= total) resolve()
      else setTimeout(frame, 40)
    }
    frame()
  })
  recorder.stop()
  await stopped
  const bytes = new Uint8Array(await new Blob(chunks, { type: 'video/webm' }).arrayBuffer())
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

function timestamp(seconds: number): string {
  return `00:00:${String(seconds).padStart(2, '0')}.000`
}

function webVtt(lines: string[]): string {
  const cues = lines.map(
    (line, index) => `${index + 1}\n${timestamp(index * sceneSeconds)} --> ${timestamp((index + 1) * sceneSeconds)}\n${line}\n`,
  )
  return `WEBVTT\n\n${cues.join('\n')}`
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
})
try {
  const page = await browser.newPage()
  await page.setContent('<!doctype html><body style="margin:0"></body>')
  const video = Buffer.from(await page.evaluate(recordInPage, { sceneSeconds, scenes }), 'base64')
  mkdirSync(outDir, { recursive: true })
  writeFileSync(path.join(outDir, 'tour-video.webm'), video)
  for (const [locale, lines] of Object.entries(captions)) {
    if (lines.length !== scenes) throw new Error(`${locale}: expected ${scenes} captions, got ${lines.length}`)
    writeFileSync(path.join(outDir, `tour-video.${locale}.vtt`), webVtt(lines))
  }
  process.stdout.write(
    `wrote ${path.relative(root, outDir)}/tour-video.webm (${video.length} bytes) and ${Object.keys(captions).length} caption files\n`,
  )
} finally {
  await browser.close()
}
