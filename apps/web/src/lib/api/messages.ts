import type { MessageView } from '@pactum/contracts/messages'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { ApiClient } from './api-client.ts'
import { useApiClient } from './api-client-context.tsx'

/**
 * A transaction's conversation (issue 32), read and written the same way by
 * the parties (`/transactions/:id/messages`, `/p2p/…`) and by an admin
 * (`/admin/transactions/:id/messages`): `base` is that path.
 */
export const messagesKey = (base: string) => ['messages', base] as const

/** How often an open conversation is asked for newer messages; react-query pauses this while the page is hidden. */
export const conversationPollMs = 15_000

/** The server answers at most this many a page (`listMessagesQuerySchema`). */
const pageSize = 100

/** Every message after `afterId`, oldest first, page by page. */
async function readAfter(api: ApiClient, base: string, afterId: string | undefined, signal: AbortSignal): Promise<MessageView[]> {
  const all: MessageView[] = []
  let after = afterId
  for (;;) {
    const page = await api.request<MessageView[]>(base, { query: { after_id: after, limit: pageSize }, signal })
    all.push(...page)
    const last = page.at(-1)
    if (page.length < pageSize || !last) return all
    after = last.id
  }
}

/**
 * The conversation so far, then only what is newer (`after_id` = the last one
 * shown), appended. Reading marks the messages read on the server:
 * `onReadOthers` is called when a read brought messages of others, so the
 * caller can refresh its unread count.
 */
export function useMessages(base: string, { enabled = true, onReadOthers }: { enabled?: boolean; onReadOthers?: () => void } = {}) {
  const api = useApiClient()
  const queryClient = useQueryClient()
  return useQuery({
    queryKey: messagesKey(base),
    enabled,
    queryFn: async ({ signal }) => {
      const shown = queryClient.getQueryData<MessageView[]>(messagesKey(base)) ?? []
      const fresh = await readAfter(api, base, shown.at(-1)?.id, signal)
      if (fresh.some((message) => !message.mine)) onReadOthers?.()
      // A poll and the read after a post may overlap: keep each message once.
      const known = new Set(shown.map((message) => message.id))
      const added = fresh.filter((message) => !known.has(message.id))
      return added.length === 0 ? shown : [...shown, ...added]
    },
    refetchInterval: conversationPollMs,
    retry: false,
  })
}

export interface NewMessage {
  text: string
  file: File | null
}

/** JSON `{text}` without a file; otherwise multipart/form-data with `file` and, when typed, `text`. */
export function messageBody({ text, file }: NewMessage): { text: string } | FormData {
  const trimmed = text.trim()
  if (!file) return { text: trimmed }
  const form = new FormData()
  if (trimmed) form.set('text', trimmed)
  form.set('file', file, file.name)
  return form
}

/** POST `base`; on success the conversation is read again (the new message, and anything that came meanwhile). */
export function usePostMessage(base: string) {
  const api = useApiClient()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (message: NewMessage) => api.request<MessageView>(base, { method: 'POST', body: messageBody(message) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messagesKey(base) }),
  })
}

/** GET `base/:message_id/attachment` with the bearer token, as a Blob (a plain link could not carry the token). */
export function fetchAttachment(api: ApiClient, base: string, messageId: string): Promise<Blob> {
  return api.request<Blob>(`${base}/${encodeURIComponent(messageId)}/attachment`, { responseType: 'blob' })
}
