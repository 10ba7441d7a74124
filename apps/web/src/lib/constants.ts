/** Timings and sizes from the product spec (§2, §7, §9), kept in one place. */

/** The invalid-form snackbar closes itself after this long. */
export const invalidFormSnackbarMs = 4000

/** Message toasts stay this long unless the caller says otherwise. */
export const toastDefaultMs = 3000

/** A route chunk that has not arrived after this long counts as failed. */
export const chunkLoadTimeoutMs = 120_000

/** How often the access token's remaining validity is checked. */
export const tokenCheckIntervalMs = 6000

/** Refresh the access token when fewer seconds than this remain. */
export const tokenMinValiditySeconds = 70

/** Below this width the app switches to the mobile layout. */
export const mobileBreakpointPx = 960

/** Width of the permanent sidebar on wide screens. */
export const sidebarWidthPx = 250

/** Transactions fetched per page. */
export const transactionPageSize = 50

/** How long the buyer may complain after delivery (spec §9), shown in help texts. */
export const complaintWindowHours = 24
