import { createHash } from 'node:crypto'
import { crc32 } from 'node:zlib'
import jpeg from 'jpeg-js'
import { PNG } from 'pngjs'
import { describe, expect, it } from 'vitest'
import { appPerTest } from '../../testing/app-per-test.ts'
import { joinedF2fSale } from '../../testing/f2f-sale-steps.ts'
import { type FormParts, multipartBody } from '../../testing/identity-upload.ts'
import { openWithSaleCast } from '../../testing/sale-cast.ts'
import { complainAfterDelivery, joinedSale } from '../../testing/sale-steps.ts'
import { orphanAfterSeconds, watchForOrphan } from './orphan-attachments.ts'

const testApps = appPerTest()

async function world() {
  const { testApp, clock, tokens, call } = await openWithSaleCast(testApps)
  const { id } = await joinedSale(call)
  /** Posts a multipart form as `who`. */
  const upload = async (who: 'buyer' | 'seller' | 'stranger', url: string, parts: FormParts) => {
    const { payload, contentType } = await multipartBody(parts)
    const response = await testApp.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${tokens[who]}`, 'content-type': contentType },
      payload,
    })
    return { status: response.statusCode, body: response.json() }
  }
  const download = (who: 'buyer' | 'seller' | 'stranger' | 'admin', url: string) =>
    testApp.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${tokens[who]}` } })
  const mails = async () =>
    (
      await testApp.app.services.db
        .selectFrom('notifications')
        .select(['template', 'recipient_role'])
        .where('transaction_id', '=', id)
        .where('template', 'in', ['message_received', 'case_message_received'])
        .execute()
    ).map((mail) => (mail.template === 'message_received' ? mail.recipient_role : `${mail.recipient_role} (${mail.template})`))
  return { app: testApp.app, clock, call, id, upload, download, mails, messages: `/api/v1/transactions/${id}/messages` }
}

/** The same id with its last character changed, so never the id itself (a fixed '0' was, one time in sixteen). */
function anotherIdLike(id: string): string {
  return `${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`
}

/** A small JPEG with an APP1 Exif segment holding a GPS-like secret right after SOI. */
function jpegWithExif(): Buffer {
  const plain = jpeg.encode({ width: 8, height: 8, data: Buffer.alloc(8 * 8 * 4, 200) }, 90).data
  const tiff = Buffer.concat([Buffer.from('Exif\0\0MM\0*\0\0\0\x08', 'latin1'), Buffer.from('GPS 48.8584N 2.2945E secret')])
  const app1 = Buffer.concat([Buffer.from([0xff, 0xe1]), Buffer.from([(tiff.length + 2) >> 8, (tiff.length + 2) & 0xff]), tiff])
  return Buffer.concat([plain.subarray(0, 2), app1, plain.subarray(2)])
}

/** A small PNG with a tEXt chunk before IEND. */
function pngWithText(): Buffer {
  const image = new PNG({ width: 4, height: 4 })
  image.data.fill(120)
  const plain = PNG.sync.write(image)
  const typeAndData = Buffer.concat([Buffer.from('tEXt'), Buffer.from('Comment\0shot at home, 12 Rue Secret')])
  const chunk = Buffer.alloc(typeAndData.length + 8)
  chunk.writeUInt32BE(typeAndData.length - 4, 0)
  typeAndData.copy(chunk, 4)
  chunk.writeUInt32BE(crc32(typeAndData), typeAndData.length + 4)
  const iend = plain.length - 12
  return Buffer.concat([plain.subarray(0, iend), chunk, plain.subarray(iend)])
}

const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1')

describe('the conversation of a transaction', () => {
  it('carries text both ways, pages with after_id, counts unread messages and throttles the e-mails', async () => {
    const { app, clock, call, id, mails, messages } = await world()
    const first = await call('buyer', 'POST', messages, { text: '  Is it still scratch-free?  ' })
    expect(first.status).toBe(201)
    expect(first.body).toMatchObject({ author_role: 'buyer', text: 'Is it still scratch-free?', attachment: null, mine: true })
    const second = await call('seller', 'POST', messages, { text: 'Yes, not a mark on it' })
    expect(second.status).toBe(201)
    expect((await call('buyer', 'POST', messages, { text: '   ' })).status).toBe(400)

    // Unread: the other side's messages only, on the transaction and on My transactions.
    expect((await call('seller', 'GET', `/api/v1/transactions/${id}`)).body.unread_messages).toBe(1)
    expect((await call('buyer', 'GET', `/api/v1/transactions/${id}`)).body.unread_messages).toBe(1)
    const summaries = await call('seller', 'GET', '/api/v1/me/transactions?view=summary')
    expect(summaries.body.find((row: { id: string }) => row.id === id).unread_messages).toBe(1)

    const read = await call('seller', 'GET', messages)
    expect(read.body.map((m: { text: string; mine: boolean }) => [m.text, m.mine])).toEqual([
      ['Is it still scratch-free?', false],
      ['Yes, not a mark on it', true],
    ])
    expect((await call('seller', 'GET', `/api/v1/transactions/${id}`)).body.unread_messages).toBe(0)
    const after = await call('buyer', 'GET', `${messages}?after_id=${first.body.id}`)
    expect(after.body.map((m: { id: string }) => m.id)).toEqual([second.body.id])
    expect((await call('buyer', 'GET', `${messages}?after_id=nope`)).body.code).toBe('invalid_after_id')
    expect((await call('buyer', 'GET', '/api/v1/me/transactions')).body.find((t: { id: string }) => t.id === id).unread_messages).toBe(0)

    // One e-mail in the first 10 minutes of the conversation, another after.
    await app.services.jobs.runDue()
    expect(await mails()).toEqual(['seller'])
    await clock.advance(app, 10 * 60 + 1)
    await call('seller', 'POST', messages, { text: 'When can you pay?' })
    await app.services.jobs.runDue()
    expect((await mails()).sort()).toEqual(['buyer', 'seller'])
    expect((await call('buyer', 'GET', `/api/v1/transactions/${id}`)).body.unread_messages).toBe(1)

    const history = await app.services.db
      .selectFrom('transaction_events')
      .select(['reason', 'actor_kind'])
      .where('transaction_id', '=', id)
      .where('event', '=', 'post_message')
      .orderBy('id')
      .execute()
    expect(history[0]).toEqual({ reason: `message:${first.body.id}`, actor_kind: 'buyer' })
    expect(history).toHaveLength(3)
  })

  it('does not count a message e-mail the reader turned off towards the pause, so the reply still reaches the writer', async () => {
    const { app, call, mails, messages } = await world()
    expect(
      (await call('buyer', 'PUT', '/api/v1/me/notification_preferences', { messages: false, reminders: true, updates: true })).status,
    ).toBe(200)
    await call('seller', 'POST', messages, { text: 'Posted it this morning' })
    await call('buyer', 'POST', messages, { text: 'Thanks, I will look out for it' })
    await app.services.jobs.runDue()
    // The buyer's e-mail is recorded as turned off; the seller still hears of the reply within the 10 minutes.
    expect((await mails()).sort()).toEqual(['buyer', 'seller'])
    const statuses = await app.services.db
      .selectFrom('notifications')
      .select(['recipient_role', 'status'])
      .where('template', '=', 'message_received')
      .orderBy('recipient_role')
      .execute()
    expect(statuses).toEqual([
      { recipient_role: 'buyer', status: 'opted_out' },
      { recipient_role: 'seller', status: 'sent' },
    ])
  })

  it('removes a stored file whose message never committed (a crash), an hour later, and keeps every other', async () => {
    const { app, clock, id, upload, download, messages } = await world()
    const kept = await upload('buyer', messages, [['file', { bytes: pdf, fileName: 'receipt.pdf' }]])
    expect(kept.status).toBe(201)
    // What a crash between storing the file and the commit leaves: the file and the job queued before it, no message.
    const lost = '0193a000-0000-7000-8000-000000000000'
    const orphan = { key: `messages/${id}/${lost}`, messageId: lost }
    await watchForOrphan(app.services.jobs, orphan)
    await app.services.documents.put(orphan.key, pdf, 'application/pdf')

    await clock.advance(app, orphanAfterSeconds - 60)
    // Still there. The stream is closed unread: left open, its file handle waited for the garbage collector (DEP0137).
    const stillStored = await app.services.documents.get(orphan.key)
    stillStored.destroy()
    await clock.advance(app, 120)
    await expect(app.services.documents.get(orphan.key)).rejects.toMatchObject({ code: 'not_found' })
    expect((await download('seller', `${messages}/${kept.body.id}/attachment`)).rawPayload).toEqual(pdf)
  })

  it('strips the metadata of images, keeps PDFs, refuses other files, and records each hash in the history', async () => {
    const { app, id, upload, download, messages } = await world()
    const exifJpeg = jpegWithExif()
    expect(exifJpeg.includes(Buffer.from('Exif'))).toBe(true)
    const photo = await upload('buyer', messages, [
      ['text', 'The box'],
      ['file', { bytes: exifJpeg, fileName: '../../IMG_0001.jpg', type: 'image/jpeg' }],
    ])
    expect(photo.status).toBe(201)
    expect(photo.body).toMatchObject({ text: 'The box', attachment: { name: 'IMG_0001.jpg', content_type: 'image/jpeg' } })
    const stored = await download('seller', `${messages}/${photo.body.id}/attachment`)
    expect(stored.statusCode).toBe(200)
    expect(stored.headers['content-type']).toBe('image/jpeg')
    expect(stored.headers['content-disposition']).toContain('attachment; filename="IMG_0001.jpg"')
    expect(stored.headers['x-content-type-options']).toBe('nosniff')
    const bytes = stored.rawPayload
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]))
    expect(bytes.includes(Buffer.from('Exif'))).toBe(false)
    expect(bytes.includes(Buffer.from('secret'))).toBe(false)
    const sha256 = createHash('sha256').update(bytes).digest('hex')
    expect(photo.body.attachment).toMatchObject({ sha256, size: bytes.length })

    const png = await upload('seller', messages, [['file', { bytes: pngWithText(), fileName: 'label.png' }]])
    expect(png.status).toBe(201)
    const pngBytes = (await download('buyer', `${messages}/${png.body.id}/attachment`)).rawPayload
    expect(pngBytes.includes(Buffer.from('tEXt'))).toBe(false)
    expect(pngBytes.includes(Buffer.from('Secret'))).toBe(false)
    expect(PNG.sync.read(pngBytes).width).toBe(4)

    const receipt = await upload('buyer', messages, [['file', { bytes: pdf, fileName: 'receipt.pdf' }]])
    expect(receipt.status).toBe(201)
    const pdfBytes = (await download('buyer', `${messages}/${receipt.body.id}/attachment`)).rawPayload
    expect(pdfBytes).toEqual(pdf)

    const exe = await upload('buyer', messages, [['file', { bytes: Buffer.from('MZ\x90\0\x03\0\0\0', 'latin1'), fileName: 'photo.jpg' }]])
    expect(exe).toMatchObject({ status: 400, body: { code: 'validation_failed', details: { field: 'body.file' } } })
    const text = await upload('buyer', messages, [['file', { bytes: Buffer.from('just some words'), fileName: 'photo.jpg' }]])
    expect(text).toMatchObject({ status: 400, body: { code: 'validation_failed', details: { field: 'body.file' } } })
    const huge = Buffer.concat([pdf, Buffer.alloc(10_000_001 - pdf.length)])
    const tooBig = await upload('buyer', messages, [['file', { bytes: huge, fileName: 'big.pdf' }]])
    expect(tooBig).toMatchObject({ status: 413, body: { code: 'file_too_large', details: { field: 'body.file' } } })
    expect((await upload('stranger', messages, [['file', { bytes: pdf, fileName: 'x.pdf' }]])).status).toBe(404)
    expect((await download('stranger', `${messages}/${receipt.body.id}/attachment`)).statusCode).toBe(404)
    expect((await download('seller', `${messages}/${anotherIdLike(receipt.body.id)}/attachment`)).statusCode).toBe(404)

    const reasons = await app.services.db
      .selectFrom('transaction_events')
      .select('reason')
      .where('transaction_id', '=', id)
      .where('event', '=', 'post_message')
      .orderBy('id')
      .execute()
    expect(reasons.map((r) => r.reason)).toEqual([
      `sha256:${sha256}`,
      `sha256:${png.body.attachment.sha256}`,
      `sha256:${receipt.body.attachment.sha256}`,
    ])
  })

  it('keeps strangers out, and lets an admin in once there is a complaint, e-mailing both parties', async () => {
    const { app, call, id, mails, messages, download } = await world()
    expect((await call('stranger', 'GET', messages)).status).toBe(404)
    expect((await call('stranger', 'POST', messages, { text: 'Hello?' })).status).toBe(404)
    const admin = `/api/v1/admin/transactions/${id}/messages`
    const early = await call('admin', 'POST', admin, { text: 'Any problem?' })
    expect(early).toMatchObject({ status: 409, body: { code: 'not_complained' } })
    expect((await call('buyer', 'POST', admin, { text: 'Me too' })).status).toBe(403)

    await complainAfterDelivery(call, id)
    const written = await call('admin', 'POST', admin, { text: 'Please both send photos of the frame' })
    expect(written.status).toBe(201)
    expect(written.body).toMatchObject({ author_role: 'admin', mine: true })
    // Even to a party who turned message e-mails off: what Pactum's team asks in a case can decide the money.
    expect(
      (await call('buyer', 'PUT', '/api/v1/me/notification_preferences', { messages: false, reminders: true, updates: true })).status,
    ).toBe(200)
    await app.services.jobs.runDue()
    expect((await mails()).sort()).toEqual(['buyer (case_message_received)', 'seller (case_message_received)'])
    expect((await call('admin', 'GET', admin)).body).toHaveLength(1)
    expect((await call('buyer', 'GET', messages)).body[0]).toMatchObject({ author_role: 'admin', mine: false })
    expect((await download('admin', `${admin}/${written.body.id}/attachment`)).statusCode).toBe(404)
  })

  it('works under /p2p for a face-to-face sale', async () => {
    const { call } = await world()
    const { id } = await joinedF2fSale(call)
    const messages = `/api/v1/p2p/transactions/${id}/messages`
    expect((await call('seller', 'POST', messages, { text: 'See you at the station at six' })).status).toBe(201)
    expect((await call('buyer', 'GET', `/api/v1/p2p/transactions/${id}`)).body.unread_messages).toBe(1)
    expect((await call('buyer', 'GET', messages)).body).toHaveLength(1)
    // An id of the other kind is not found under /p2p.
    expect((await call('buyer', 'GET', `/api/v1/p2p/transactions/${(await joinedSale(call)).id}/messages`)).status).toBe(404)
  })
})
