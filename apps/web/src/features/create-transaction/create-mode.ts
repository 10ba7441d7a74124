/** The two build modes of the create screen (spec §2). */
export type CreateMode = 'createTransactionOnline' | 'createTransactionFace'

export const defaultCreateMode: CreateMode = 'createTransactionOnline'

/** Link prefill (`?model=`): face-to-face links open the face-to-face mode, anything else online. */
export function modeFromQuery(model: string | null): CreateMode {
  const value = model?.trim().toLowerCase()
  return value === 'f2f' || value === 'f' || value === 'face' ? 'createTransactionFace' : defaultCreateMode
}

export const stepKeysByMode: Record<CreateMode, readonly string[]> = {
  createTransactionOnline: ['createTransaction.steps.role', 'createTransaction.steps.item', 'createTransaction.steps.review'],
  createTransactionFace: ['createTransaction.steps.details', 'createTransaction.steps.deposit', 'createTransaction.steps.share'],
}
