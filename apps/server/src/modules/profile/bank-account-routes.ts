import {
  debitAccountBodySchema,
  debitAccountSchema,
  linkBankDetailsBodySchema,
  linkBankDetailsResponseSchema,
  linkTokenSchema,
} from '@pactum/contracts/bank-accounts'
import { errorBodySchema } from '@pactum/contracts/errors'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { createLinkToken, getDebitAccount, linkBankDetails, saveDebitAccount } from './bank-accounts.ts'
import { attachBankAccount } from './payout-account.ts'
import { userOf } from '../../http/plugins/authentication.ts'

const secured = { tags: ['profile'], security: [{ bearer: [] }] }
// Authentication runs onRequest, before body validation: no token answers 401, never 400.
const errors = { 400: errorBodySchema, 401: errorBodySchema, 409: errorBodySchema }

/** Payout bank details and bank linking (spec §3 Debit account, Bank-link request; §6; §7 Profile and payout). */
export const bankAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, clock, connectedAccounts, bankLink, jobs } = app.services

  app.get(
    '/me/debit_account',
    {
      onRequest: app.authenticate,
      schema: {
        ...secured,
        summary: 'The payout bank account (bank_account null when none); never the full number',
        response: { 200: debitAccountSchema, ...errors },
      },
    },
    async (request) => getDebitAccount(db, userOf(request).id),
  )

  app.post(
    '/me/debit_account',
    {
      onRequest: app.authenticate,
      schema: {
        ...secured,
        summary: 'Save (replace) the payout bank account, checked by the country’s rules',
        body: debitAccountBodySchema,
        response: { 200: debitAccountSchema, ...errors },
      },
    },
    async (request) => {
      const saved = await saveDebitAccount({ db, jobs }, userOf(request).id, request.body, clock.now())
      await attachBankAccount({ db, connectedAccounts }, userOf(request).id, clock.now())
      return saved
    },
  )

  app.get(
    '/me/plaid/link_token',
    {
      onRequest: app.authenticate,
      schema: {
        ...secured,
        summary: 'A link token for the bank-linking provider (country us only)',
        response: { 200: linkTokenSchema, ...errors },
      },
    },
    async (request) => createLinkToken(db, bankLink, userOf(request).id, clock.now()),
  )

  app.post(
    '/me/plaid/link_bank_details',
    {
      onRequest: app.authenticate,
      schema: {
        ...secured,
        summary: 'Exchange the bank-linking provider’s public token for the payout bank account',
        body: linkBankDetailsBodySchema,
        response: { 200: linkBankDetailsResponseSchema, ...errors },
      },
    },
    async (request) => linkBankDetails({ db, connectedAccounts, bankLink, jobs }, userOf(request).id, request.body, clock.now()),
  )
}
