import type { MessageView } from '@pactum/contracts/messages'

/** A message of the conversation as the server would send it: the seller's text, not the viewer's. */
export function fakeMessage(overrides: Partial<MessageView> = {}): MessageView {
  return {
    id: '019a0000-0000-7000-8000-0000000000m1',
    author_role: 'seller',
    text: 'Hello, it ships tomorrow.',
    attachment: null,
    created_at: '2026-11-23T10:00:00.000Z',
    mine: false,
    ...overrides,
  }
}

/** A photo's attachment, as stored after re-encoding. */
export const fakePhoto = {
  name: 'cracked-frame.png',
  content_type: 'image/png' as const,
  size: 1_234_567,
  sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
}
