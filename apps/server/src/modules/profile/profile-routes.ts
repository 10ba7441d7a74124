import { errorBodySchema } from '@pactum/contracts/errors'
import {
  acceptTosResponseSchema,
  notificationLanguageSchema,
  payoutRequirementsSchema,
  profileSchema,
  setActiveCountryBodySchema,
  supportedCountriesSchema,
  supportedNotificationLanguagesSchema,
  updateProfileBodySchema,
} from '@pactum/contracts/profile'
import { notificationPreferencesSchema } from '@pactum/contracts/notification-preferences'
import { publishableKeySchema } from '@pactum/contracts/transactions'
import { supportedCountries } from '@pactum/domain/countries'
import { supportedLocales } from '@pactum/domain/locales'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import {
  acceptTerms,
  getNotificationLanguage,
  getPayoutRequirements,
  getProfile,
  setActiveCountry,
  savePersonalDetails,
  setNotificationLanguage,
} from './profile.ts'
import { getNotificationPreferences, saveNotificationPreferences } from './notification-preferences.ts'
import { userOf } from '../../http/plugins/authentication.ts'

const secured = { tags: ['profile'], security: [{ bearer: [] }] }
// Authentication runs onRequest, before body validation: no token answers 401, never 400.
const errors = { 400: errorBodySchema, 401: errorBodySchema, 409: errorBodySchema }

/** Onboarding: country-and-terms gate, payout profile, notification language (spec §7 Profile and payout; Other). */
export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, clock, config, payments, connectedAccounts, identity } = app.services

  app.post(
    '/me/personal/set_active_country',
    {
      onRequest: app.authenticate,
      schema: {
        ...secured,
        summary: 'Set the country the user is paid out in',
        body: setActiveCountryBodySchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await setActiveCountry(db, userOf(request).id, request.body.country_code, clock.now())
      return reply.status(204).send(null)
    },
  )

  app.post(
    '/me/accept_tos_direct',
    {
      onRequest: app.authenticate,
      schema: { ...secured, summary: 'Accept the current terms of service', response: { 200: acceptTosResponseSchema, ...errors } },
    },
    async (request) =>
      acceptTerms({ db, connectedAccounts }, userOf(request).id, clock.now(), {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      }),
  )

  app.get(
    '/me/personal',
    {
      onRequest: app.authenticate,
      schema: {
        ...secured,
        summary: 'The payout profile (409 active_country_not_set until a country is set)',
        response: { 200: profileSchema, ...errors },
      },
    },
    async (request) => getProfile(db, userOf(request).id),
  )

  app.put(
    '/me/personal',
    {
      onRequest: app.authenticate,
      schema: {
        ...secured,
        summary: 'Save personal details (parts left out are kept)',
        body: updateProfileBodySchema,
        response: { 200: profileSchema, ...errors },
      },
    },
    async (request) => savePersonalDetails({ db, connectedAccounts, clock }, userOf(request).id, request.body),
  )

  // The same key as a transaction's, for a client that sets up the provider's
  // browser library before it has a transaction (or when that call failed).
  app.get(
    '/me/personal/stripe_publishable_key',
    {
      onRequest: app.authenticate,
      schema: { ...secured, summary: 'The payment provider’s publishable key', response: { 200: publishableKeySchema, ...errors } },
    },
    async () => ({ publishable_key: payments.publishableKey }),
  )

  app.get(
    '/me/personal/payout_requirements',
    {
      onRequest: app.authenticate,
      schema: {
        ...secured,
        summary: 'What is still due before payouts (409 active_country_not_set, then tos_not_accepted)',
        response: { 200: payoutRequirementsSchema, ...errors },
      },
    },
    async (request) =>
      getPayoutRequirements({ db, clock, connectedAccounts, identity, method: config.verificationMethod }, userOf(request).id),
  )

  app.get(
    '/me/notification_language',
    {
      onRequest: app.authenticate,
      schema: { ...secured, summary: 'The language of e-mails to the user', response: { 200: notificationLanguageSchema, ...errors } },
    },
    async (request) => ({ language_code: await getNotificationLanguage(db, userOf(request).id) }),
  )

  app.post(
    '/me/notification_language',
    {
      onRequest: app.authenticate,
      schema: {
        ...secured,
        summary: 'Set the language of e-mails to the user',
        body: notificationLanguageSchema,
        response: { 200: notificationLanguageSchema, ...errors },
      },
    },
    async (request) => {
      await setNotificationLanguage(db, userOf(request).id, request.body.language_code, clock.now())
      return { language_code: request.body.language_code }
    },
  )

  app.get(
    '/me/notification_preferences',
    {
      onRequest: app.authenticate,
      schema: {
        ...secured,
        summary: 'Which optional e-mails the user gets (those about money and security are always sent)',
        response: { 200: notificationPreferencesSchema, ...errors },
      },
    },
    async (request) => getNotificationPreferences(db, userOf(request).id),
  )

  app.put(
    '/me/notification_preferences',
    {
      onRequest: app.authenticate,
      schema: {
        ...secured,
        summary: 'Choose which optional e-mails the user gets (every category is given)',
        body: notificationPreferencesSchema,
        response: { 200: notificationPreferencesSchema, ...errors },
      },
    },
    async (request) => saveNotificationPreferences(db, userOf(request).id, request.body, clock.now()),
  )

  app.get(
    '/supported_countries',
    { schema: { tags: ['profile'], summary: 'Countries where sellers can be paid out', response: { 200: supportedCountriesSchema } } },
    async () => supportedCountries.map((country) => ({ ...country })),
  )

  app.get(
    '/supported_notification_languages',
    { schema: { tags: ['profile'], summary: 'Languages e-mails can be sent in', response: { 200: supportedNotificationLanguagesSchema } } },
    async () => supportedLocales.map((language_code) => ({ language_code })),
  )
}
