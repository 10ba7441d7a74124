import { isSupportedLocale, type Locale } from '@pactum/domain/locales'
import type { KoaContextWithOIDC } from 'oidc-provider'
import type { Config } from '../../../config.ts'
import { trustedHtml } from './html.ts'
import { endSessionNow, hintProvesOwnSession } from './logout-without-confirmation.ts'
import { backToPactum, logoutPage, messagePage, type PageContext } from './pages.ts'
import { chooseLocale, localeCookie, translator } from './translations.ts'

/**
 * The pages oidc-provider renders itself (logout confirmation, signed out,
 * errors), in Pactum's look and the user's language instead of the library's
 * defaults, which load a web font and speak English only.
 */
export function providerPages(config: Config) {
  const home = `${config.publicUrl}/`
  // The web app is the provider's only client, and it is ours.
  const ownClientIds = [config.oidc.clientId]

  function pageContext(ctx: KoaContextWithOIDC, withSwitcher: boolean): PageContext {
    const requested = ctx.query.lang
    let locale: Locale
    if (isSupportedLocale(requested)) {
      locale = requested
      ctx.append('Set-Cookie', localeCookie(locale, ctx.secure))
    } else {
      locale = chooseLocale({
        cookieHeader: ctx.get('cookie'),
        uiLocales: ctx.oidc?.params?.ui_locales,
        acceptLanguage: ctx.get('accept-language'),
      })
    }
    const languageHref = (option: Locale) => {
      const url = new URL(ctx.href)
      url.searchParams.set('lang', option)
      return `${url.pathname}${url.search}`
    }
    return { locale, t: translator(locale), ...(withSwitcher ? { languageHref } : {}) }
  }

  function send(ctx: KoaContextWithOIDC, body: string) {
    ctx.type = 'html'
    ctx.set('Cache-Control', 'no-store')
    ctx.body = body
  }

  return {
    /**
     * The web app's own sign-out, with the ID token of this very session, ends it at once;
     * any other request asks first, with a real button (no auto-submitting script: the CSP
     * forbids inline scripts). See logout-without-confirmation.ts.
     */
    logoutSource: async (ctx: KoaContextWithOIDC, form: string) => {
      if (hintProvesOwnSession(ctx, ownClientIds)) return endSessionNow(ctx)
      // `form` is oidc-provider's own markup (action URL and xsrf token), not user input.
      send(ctx, logoutPage(pageContext(ctx, true), { providerForm: trustedHtml(form), cancelHref: home }))
    },
    /** Shown when the client gave no post_logout_redirect_uri. */
    postLogoutSuccessSource: async (ctx: KoaContextWithOIDC) => {
      send(
        ctx,
        messagePage(pageContext(ctx, true), {
          title: 'loggedOut.title',
          heading: 'loggedOut.heading',
          body: 'loggedOut.body',
          link: { href: home, label: 'loggedOut.link' },
        }),
      )
    },
    /** Protocol errors shown to the user (the details go to the log, not the page). */
    renderError: async (ctx: KoaContextWithOIDC, _out: unknown, error: Error) => {
      const expired = error.name === 'SessionNotFound'
      send(
        ctx,
        messagePage(pageContext(ctx, false), {
          title: expired ? 'expired.title' : 'error.title',
          body: expired ? 'expired.body' : 'error.body',
          link: backToPactum(home),
        }),
      )
    },
  }
}
