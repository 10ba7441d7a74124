import { f2fComplained, f2fDepositAccepted, f2fDepositPaid, f2fHandover, f2fJoined, f2fPriced, f2fWindow } from './f2f-races.ts'
import { onlineComplained, onlineDelivered, onlineJoined, onlinePaid } from './online-races.ts'
import type { RaceKind } from './sale.ts'

/*
 * The races of `npm run bench:conflicts`, in the order they run and are
 * printed: for each kind, how a sale is brought (through the API, as
 * clients do) to a state where actions conflict, and the requests that
 * then race over its money (online-races.ts, f2f-races.ts).
 */

export const raceKinds: readonly RaceKind[] = [
  onlineJoined,
  onlinePaid,
  onlineDelivered,
  onlineComplained,
  f2fJoined,
  f2fDepositPaid,
  f2fDepositAccepted,
  f2fPriced,
  f2fHandover,
  f2fWindow,
  f2fComplained,
]
