import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import type { AnyTransaction } from '@pactum/contracts/f2f-transactions'
import { offeredActions, type TransactionActionEntry, type TransactionActionName } from '@pactum/contracts/transaction-actions'
import { type ReactNode, useState } from 'react'
import { useTranslation } from '../../i18n/react.tsx'
import { ActionDialog } from './action-dialog.tsx'
import { actionTestId, actionTexts } from './action-texts.ts'
import { CheckoutDialog, depositCheckout, onlineCheckout, remainderCheckout } from './checkout-dialog.tsx'
import { EditTermsDialog } from './edit-terms-dialog.tsx'
import { SetPriceDialog } from './set-price-dialog.tsx'

type Offered = readonly [TransactionActionName, TransactionActionEntry]

/** The actions the server offers this viewer that show as buttons, in catalogue order: the way forward first, cancelling last. */
export function offeredButtons(transaction: AnyTransaction): Offered[] {
  return offeredActions(transaction.type, transaction.available_actions).filter(([, entry]) => entry.button === true)
}

/**
 * The steps with a dialog of their own: paying (the checkout), the creator's
 * change of terms and the seller's price. Every other action confirms in
 * the catalogue's generic dialog.
 */
function ownStep(name: TransactionActionName, transaction: AnyTransaction, onClose: () => void): ReactNode | undefined {
  if (name === 'update') return <EditTermsDialog transaction={transaction} onClose={onClose} />
  if (transaction.type === 'online')
    return name === 'pay' ? <CheckoutDialog plan={onlineCheckout(transaction)} onClose={onClose} /> : undefined
  if (name === 'pay_deposit') return <CheckoutDialog plan={depositCheckout(transaction)} onClose={onClose} />
  if (name === 'pay_remainder') return <CheckoutDialog plan={remainderCheckout(transaction)} onClose={onClose} />
  if (name === 'set_price') return <SetPriceDialog transaction={transaction} onClose={onClose} />
  return undefined
}

/** One button per offered action; each opens its confirmation step or checkout. */
export function ActionButtons({ transaction, actions }: { transaction: AnyTransaction; actions: Offered[] }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState<Offered | null>(null)
  const close = () => setOpen(null)
  return (
    <>
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ flexWrap: 'wrap', gap: 1.5 }} data-testid="transaction-actions">
        {actions.map((offered) => {
          const [name, entry] = offered
          return (
            <Button
              key={name}
              variant={entry.destructive || name === 'update' ? 'outlined' : 'contained'}
              color={entry.destructive ? 'error' : 'primary'}
              size="large"
              onClick={() => setOpen(offered)}
              data-testid={`action-${actionTestId(name)}`}
            >
              {name === 'update' ? t('transactionStatus.edit.button') : t(`${actionTexts(transaction, name)}.button`)}
            </Button>
          )
        })}
      </Stack>
      {open &&
        (ownStep(open[0], transaction, close) ?? <ActionDialog name={open[0]} entry={open[1]} transaction={transaction} onClose={close} />)}
    </>
  )
}
